package io.stillwater.engine.peek;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.Dataflow;
import io.stillwater.engine.dataflow.DataflowBuilder;
import io.stillwater.engine.dataflow.Delta;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A single-threaded compute for read-path tests: each dataflow is a real {@link Dataflow}
 * stepped with the coordinator's commands, its output arranged in a {@link TestExport}.
 * Commands run on the calling (coordinator) thread unless {@link #pause()}d, in which case
 * they queue until {@link #resume()}: how a test makes compute lag behind the tables.
 * Plans may read tables only.
 */
final class TestCompute implements ComputeController {
    private record Maintained(TestExport export, Dataflow dataflow) {}

    private final Map<Long, Maintained> dataflows = new ConcurrentHashMap<>();
    private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    private boolean paused;

    synchronized void pause() { paused = true; }

    synchronized void resume() {
        paused = false;
        while (!queued.isEmpty()) queued.poll().run();
    }

    private synchronized void run(Runnable command) {
        if (paused) queued.add(command);
        else command.run();
    }

    /** Registers an export the test feeds itself (no dataflow). */
    TestCompute add(TestExport export) {
        dataflows.put(export.exportId(), new Maintained(export, null));
        return this;
    }

    /** The export with id {@code exportId}. */
    TestExport export(long exportId) { return dataflows.get(exportId).export(); }

    @Override
    public void createDataflow(DataflowSpec spec, InputSnapshot inputs) {
        List<Expr> key = switch (spec.export()) {
            case DataflowSpec.Export.Index i -> i.key();
            case DataflowSpec.Export.MaterializedView mv -> allColumns(spec.plan().types());
        };
        TestExport export = new TestExport(spec.exportId(), spec.collectionId(), key);
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).build(spec.plan());
        dataflows.put(spec.exportId(), new Maintained(export, df));
        run(() -> {
            try (inputs) {
                Map<Long, Changes> in = new HashMap<>();
                for (long id : PlanInputs.objectIds(spec.plan())) in.put(id, inputs.tables().read(id, inputs.asOf()));
                Delta d = df.step(inputs.asOf(), in);
                export.hydrate(inputs.asOf(), d.ok(), d.errors());
            }
        });
    }

    private static List<Expr> allColumns(List<SqlType> types) {
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) out.add(new Expr.Column(i, types.get(i)));
        return out;
    }

    @Override
    public void dropDataflow(long exportId) {
        Maintained m = dataflows.remove(exportId);
        if (m != null) m.export().drop();
    }

    @Override
    public void inputChanges(long time, Map<Long, Changes> changes) {
        Map<Long, Changes> copy = Map.copyOf(changes);
        run(() -> {
            for (Maintained m : dataflows.values()) {
                if (m.dataflow() == null || m.export().upper() == Long.MIN_VALUE) continue;
                Delta d = m.dataflow().step(time, copy);
                m.export().step(time, d.ok(), d.errors());
            }
        });
    }

    @Override
    public void advanceTo(long upper) {
        run(() -> {
            for (Maintained m : dataflows.values()) {
                if (m.dataflow() != null && m.export().upper() != Long.MIN_VALUE) m.export().advanceTo(upper);
            }
        });
    }

    @Override
    public List<CollectionReader> readers(long collectionId) {
        List<CollectionReader> out = new ArrayList<>();
        for (Maintained m : dataflows.values()) if (m.export().collectionId() == collectionId) out.add(m.export());
        return out;
    }

    @Override
    public Optional<CollectionReader> reader(long exportId) {
        return Optional.ofNullable(dataflows.get(exportId)).map(Maintained::export);
    }

    @Override
    public void close() {}

    /** Rows of {@code c} for assertions. */
    static List<Row> rows(Changes c) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) for (long k = 0; k < c.diff(i); k++) out.add(c.row(i));
        return out;
    }
}
