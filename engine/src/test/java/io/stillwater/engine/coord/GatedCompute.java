package io.stillwater.engine.coord;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.compute.MaintenanceBacklog;
import io.stillwater.engine.compute.PeekHandle;
import io.stillwater.engine.compute.PeekKind;
import io.stillwater.engine.compute.PeekRequest;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.params.ParameterSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real replica whose dataflows do not exist until the test {@link #release}s it: until
 * then every command (dataflow creation, input changes, frontier advances) is queued in
 * order, and the replica offers no export readers. Reads it serves (table reads) run on
 * the replica. What a test needs to see a materialized view read answered before the
 * view's dataflow has hydrated. Commands and release are serialized on this object.
 */
final class GatedCompute implements ComputeController {
    private final ComputeReplica replica;
    private final List<Runnable> held = new ArrayList<>();
    private volatile boolean open;

    GatedCompute(ComputeReplica replica, boolean open) {
        this.replica = replica;
        this.open = open;
    }

    /** Hands every queued command to the replica, in order; later commands go straight through. */
    synchronized void release() {
        for (Runnable r : held) r.run();
        held.clear();
        open = true;
    }

    private synchronized void command(Runnable r) {
        if (open) r.run();
        else held.add(r);
    }

    @Override
    public void createDataflow(DataflowSpec spec, InputSnapshot inputs) { command(() -> replica.createDataflow(spec, inputs)); }

    @Override
    public void dropDataflow(long exportId) { command(() -> replica.dropDataflow(exportId)); }

    @Override
    public void inputChanges(long time, Map<Long, Changes> changes) { command(() -> replica.inputChanges(time, changes)); }

    @Override
    public void advanceTo(long upper) { command(() -> replica.advanceTo(upper)); }

    @Override
    public List<CollectionReader> readers(long collectionId) { return open ? replica.readers(collectionId) : List.of(); }

    @Override
    public Optional<CollectionReader> reader(long exportId) { return open ? replica.reader(exportId) : Optional.empty(); }

    @Override
    public <R> PeekHandle<R> serve(PeekRequest<R> request) { return replica.serve(request); }

    @Override
    public Optional<ComputeRuntime> placement(PeekKind kind, ParameterSnapshot params) { return replica.placement(kind, params); }

    @Override
    public MaintenanceBacklog.Status backlog() { return replica.backlog(); }

    @Override
    public void onMaintenanceProgress(Runnable listener) { replica.onMaintenanceProgress(listener); }

    @Override
    public void close() { replica.close(); }
}
