package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.PeekHandle;
import io.stillwater.engine.compute.PeekKind;
import io.stillwater.engine.compute.PeekRequest;
import io.stillwater.engine.compute.PeekWork;
import io.stillwater.engine.params.ParameterSnapshot;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.dataflow.OneShotRead;
import io.stillwater.engine.dataflow.SnapshotSource;
import java.util.Optional;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.dataflow.ArrangedInput;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import java.util.function.Supplier;

/**
 * Runs a {@link PeekPlan} over inputs pinned at one time ({@link PeekInputs}): builds the
 * read's {@link PeekWork} and asks the replica to serve it ({@link ComputeController#serve}),
 * which places it on one of its runtimes (solo worker loop, maintenance, interactive), then
 * awaits the result, cancellably. Constants never reach a replica: they run here.
 *
 * <p>Errors are data: before producing any row, a read fails with the least evaluation
 * error that any export it reads holds at the read time ({@link
 * CollectionReader.Snapshot#firstError()}), on every path. Errors of the read's own
 * expressions (the fast path's fused filter/project, the peek dataflow's operators) are
 * collected the same way: the read fails with the least of them, so the outcome does not
 * depend on the order rows are visited.
 *
 * <p>Walks count cursor positions (fuel) and poll {@link Cancellation} every {@code
 * compute_index_peek_yield_granularity} positions. The caller owns and closes the inputs,
 * after {@code run} returns or throws (by then the read no longer touches them).
 */
public final class PeekExecutor {
    /** How many rows a fast-path visitor handles between cancellation checks. */
    private static final int CHECK_EVERY = 1024;

    private final Supplier<Catalog> catalog;
    private final Coordinator coordinator;

    /** @param coordinator for built-in relations' contents, the default replica and system parameters (may be null) */
    public PeekExecutor(Coordinator coordinator) {
        this(coordinator == null ? Catalog::empty : coordinator::catalog, coordinator);
    }

    private PeekExecutor(Supplier<Catalog> catalog, Coordinator coordinator) {
        this.catalog = catalog;
        this.coordinator = coordinator;
    }

    /** A read's rows (a bag: positive diffs) and the cursor positions its walks visited. */
    public record Result(Changes rows, long cursorPositions) {}

    /**
     * Runs {@code plan} at {@code in.asOf()} on the coordinator's replica ({@code in}
     * covers the plan's inputs; it is ignored, and may be null, for a {@link PeekPlan.Constant}).
     */
    public Result run(PeekPlan plan, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        return run(coordinator == null ? ComputeController.NONE : coordinator.compute(), null, plan, in, ctx, cancel);
    }

    /**
     * Runs {@code plan} on {@code replica} (the session's), reading the system parameters
     * as they are now. {@code statement} names the read in the replica's peek history.
     */
    public Result run(ComputeController replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                      Cancellation cancel) {
        return execute(replica, statement, plan, in, ctx, cancel, false);
    }

    /**
     * Runs {@code plan} on the calling thread, not as a replica's read (no placement, no
     * peek history): for the reads of writes, which read table snapshots under the
     * coordinator's write lock. Introspection relations still come from {@code replica}.
     */
    public Result runHere(ComputeController replica, PeekPlan plan, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        return execute(replica, null, plan, in, ctx, cancel, true);
    }

    private Result execute(ComputeController replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                           Cancellation cancel, boolean here) {
        cancel.check();
        if (plan instanceof PeekPlan.Constant c) {
            return new Result(OneShotRead.run(c.body(), (id, t) -> {
                throw new IllegalStateException("a plan without inputs read " + id);
            }, in == null ? 0 : in.asOf(), ctx, cancel), 0);
        }
        FaultPoints.hit(FaultPoints.Point.PEEK);
        ParameterSnapshot params = coordinator == null ? new SystemParameters().snapshot()
                : coordinator.systemParameters().snapshot();
        PeekRequest<Result> request = new PeekRequest<>(statement == null ? plan.pathName() : statement, kind(plan),
                plan.exports().size() == 1 ? plan.exports().keySet().iterator().next() : -1, in.asOf(), params, cancel,
                work(replica, plan, in, ctx));
        return here ? PeekHandle.runHere(request).await() : replica.serve(request).await();
    }

    /** The kind of read {@code plan} is, for placement (a read of introspection relations is one). */
    public static PeekKind kind(PeekPlan plan) {
        return switch (plan) {
            case PeekPlan.FastPathLookup l -> PeekKind.LOOKUP;
            case PeekPlan.FastPathWalk w -> PeekKind.WALK;
            case PeekPlan.PeekDataflow d -> d.systemRelations().stream().anyMatch(SystemRelations::isIntrospection)
                    ? PeekKind.INTROSPECTION : PeekKind.DATAFLOW;
            case PeekPlan.Constant c -> PeekKind.DATAFLOW;
        };
    }

    /** The read's work over {@code in}, to run wherever {@code replica} places it. */
    private PeekWork<Result> work(ComputeController replica, PeekPlan plan, PeekInputs in, EvalContext ctx) {
        return switch (plan) {
            case PeekPlan.FastPathLookup l -> new OneStep(c -> {
                failOnExportErrors(plan, in);
                return lookup(l, in, ctx, c);
            });
            case PeekPlan.FastPathWalk w -> new WalkWork(w, in, ctx);
            case PeekPlan.PeekDataflow d -> new OneStep(c -> {
                failOnExportErrors(plan, in);
                return new Result(OneShotRead.run(d.body(), source(replica, d, in, c), in.asOf(), ctx, c), 0);
            });
            case PeekPlan.Constant c -> throw new IllegalArgumentException("constants are not served by a replica");
        };
    }

    /** A read done in one slice, whatever the budget. */
    private static final class OneStep implements PeekWork<Result> {
        private final java.util.function.Function<Cancellation, Result> body;
        private Result result;

        OneStep(java.util.function.Function<Cancellation, Result> body) { this.body = body; }

        @Override
        public boolean advance(long positions, long granularity, Cancellation cancel) {
            result = body.apply(cancel);
            return true;
        }

        @Override
        public Result result() { return result; }
    }

    /** A fast-path walk in slices: the first checks the export's errors and opens the walk. */
    private static final class WalkWork implements PeekWork<Result> {
        private final PeekPlan.FastPathWalk plan;
        private final PeekInputs in;
        private final EvalContext ctx;
        private RowSink sink;
        private CollectionReader.Walk walk;

        WalkWork(PeekPlan.FastPathWalk plan, PeekInputs in, EvalContext ctx) {
            this.plan = plan;
            this.in = in;
            this.ctx = ctx;
        }

        @Override
        public boolean advance(long positions, long granularity, Cancellation cancel) {
            if (walk == null) {
                failOnExportErrors(plan, in);
                // The walk checks every `granularity` positions; the sink need not.
                sink = new RowSink(FusedMfp.compile(plan.body(), ctx), Cancellation.NONE);
                walk = in.export(plan.export().exportId()).walker(sink);
            }
            return walk.advance(positions, granularity, cancel);
        }

        @Override
        public Result result() { return new Result(sink.finish(), walk.positions()); }
    }

    /** Throws the least error held at asOf by any export the plan reads. */
    static void failOnExportErrors(PeekPlan plan, PeekInputs in) {
        EvalError least = null;
        for (long exportId : plan.exports().keySet()) {
            EvalError e = in.export(exportId).firstError().orElse(null);
            if (e != null && (least == null || e.compareTo(least) < 0)) least = e;
        }
        if (least != null) throw least.toException();
    }

    private Result lookup(PeekPlan.FastPathLookup l, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        CollectionReader.Snapshot s = in.export(l.export().exportId());
        RowSink sink = new RowSink(FusedMfp.compile(l.body(), ctx), cancel);
        for (Row key : l.keys()) {
            cancel.check();
            s.lookup(key, sink);
        }
        return new Result(sink.finish(), sink.visited);
    }

    private SnapshotSource source(ComputeController replica, PeekPlan.PeekDataflow d, PeekInputs in,
                                  Cancellation cancel) {
        return new SnapshotSource() {
            @Override
            public Changes read(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported != null) return in.export(imported.exportId()).contents(cancel);
                if (d.systemRelations().contains(id)) return SystemRelations.contents(id, catalog.get(), coordinator, replica);
                return in.table(id);
            }

            /** An imported index keyed by plain columns: joins probe it rather than copy it. */
            @Override
            public Optional<ArrangedInput> arranged(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported == null) return Optional.empty();
                int[] keyColumns = new int[imported.key().size()];
                for (int i = 0; i < keyColumns.length; i++) {
                    if (!(imported.key().get(i) instanceof Expr.Column c)) return Optional.empty();
                    keyColumns[i] = c.index();
                }
                CollectionReader.Snapshot snapshot = in.export(imported.exportId());
                return Optional.of(new ArrangedInput() {
                    @Override
                    public int[] keyColumns() { return keyColumns.clone(); }

                    @Override
                    public void lookup(Row key, Visitor visitor) { snapshot.lookup(key, visitor::accept); }
                });
            }
        };
    }

    /** Applies the fused chain to visited rows, keeping the least evaluation error. */
    private static final class RowSink implements CollectionReader.RowVisitor {
        private final FusedMfp mfp;
        /** The current slice's cancellation (a walk's slices may run on different threads). */
        Cancellation cancel;
        private final Changes out = new Changes();
        private EvalError least;
        long visited;

        RowSink(FusedMfp mfp, Cancellation cancel) {
            this.mfp = mfp;
            this.cancel = cancel;
        }

        @Override
        public void accept(Row row, long diff) {
            if ((++visited % CHECK_EVERY) == 0) cancel.check();
            try {
                Row r = mfp.apply(row);
                if (r != null) out.add(r, diff);
            } catch (SqlException e) {
                EvalError err = e.toEvalError();
                if (least == null || err.compareTo(least) < 0) least = err;
            }
        }

        Changes finish() {
            if (least != null) throw least.toException();
            return out;
        }
    }
}
