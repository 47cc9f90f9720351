package io.stillwater.engine.coord;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.compute.MaintenanceBacklog;
import io.stillwater.engine.compute.PeekHandle;
import io.stillwater.engine.compute.PeekKind;
import io.stillwater.engine.compute.PeekRequest;
import io.stillwater.engine.compute.ReplicaIntrospection;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.params.ParameterSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One replica's compute as a session on its cluster reads it: the replica's own exports
 * (the indexes and materialized views of {@code cluster}), plus the materialized views of
 * other clusters, found on a replica of their own cluster ({@code foreign}). Indexes of
 * other clusters are not visible: Materialize's rule that a query uses only the indexes
 * of the cluster it runs on, while a materialized view is readable from everywhere.
 *
 * <p>Commands go to the replica itself ({@link #home()}); this is a read view, cheap to
 * create per statement and not to be closed by sessions (closing is a no-op: the
 * coordinator owns the replica).
 */
final class SessionCompute implements ComputeController {
    /** Finds materialized view {@code id}'s reader when it lives on a cluster other than {@code sessionCluster}. */
    interface ForeignViews {
        Optional<CollectionReader> find(long id, String sessionCluster);
    }

    private final ComputeController home;
    private final String cluster;
    private final ForeignViews foreign;
    /** Materialized views' contents from the checkpoint, answering reads until their dataflows hydrate. */
    private final StoredViews stored;

    SessionCompute(ComputeController home, String cluster, ForeignViews foreign, StoredViews stored) {
        this.home = home;
        this.cluster = cluster;
        this.foreign = foreign;
        this.stored = stored;
    }

    /** The replica's own controller. */
    ComputeController home() { return home; }

    @Override
    public void createDataflow(DataflowSpec spec, InputSnapshot inputs) { home.createDataflow(spec, inputs); }

    @Override
    public void dropDataflow(long exportId) { home.dropDataflow(exportId); }

    @Override
    public void inputChanges(long time, Map<Long, Changes> changes) { home.inputChanges(time, changes); }

    @Override
    public void advanceTo(long upper) { home.advanceTo(upper); }

    @Override
    public List<CollectionReader> readers(long collectionId) {
        List<CollectionReader> own = home.readers(collectionId);
        Optional<CollectionReader> other = foreign.find(collectionId, cluster);
        if (other.isEmpty()) return stored.readers(collectionId, own);
        List<CollectionReader> out = new ArrayList<>(own);
        out.add(other.get());
        return stored.readers(collectionId, out);
    }

    @Override
    public Optional<CollectionReader> reader(long exportId) {
        Optional<CollectionReader> own = home.reader(exportId);
        return stored.reader(exportId, own.isPresent() ? own : foreign.find(exportId, cluster));
    }

    /** Reads are served where the replica places them (its runtimes), not on the caller's thread. */
    @Override
    public <R> PeekHandle<R> serve(PeekRequest<R> request) {
        return home.serve(request);
    }

    @Override
    public Optional<ComputeRuntime> placement(PeekKind kind,
                                              ParameterSnapshot params) {
        return home.placement(kind, params);
    }

    @Override
    public Optional<ReplicaIntrospection> introspection() { return home.introspection(); }

    @Override
    public MaintenanceBacklog.Status backlog() { return home.backlog(); }

    @Override
    public void close() {
        // The coordinator owns the replica.
    }
}
