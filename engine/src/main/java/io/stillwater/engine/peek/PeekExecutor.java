package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
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
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import java.util.function.Supplier;

/**
 * Runs a {@link PeekPlan} over inputs pinned at one time ({@link PeekInputs}), on the
 * calling thread.
 *
 * <p>Errors are data: before producing any row, a read fails with the least evaluation
 * error that any export it reads holds at the read time ({@link
 * CollectionReader.Snapshot#firstError()}), on every path. Errors of the read's own
 * expressions (the fast path's fused filter/project, the peek dataflow's operators) are
 * collected the same way: the read fails with the least of them, so the outcome does not
 * depend on the order rows are visited.
 *
 * <p>Walks count cursor positions (fuel) and poll {@link Cancellation}; the caller owns and
 * closes the inputs.
 */
public final class PeekExecutor {
    /** How many rows a fast-path visitor handles between cancellation checks. */
    private static final int CHECK_EVERY = 1024;

    private final Supplier<Catalog> catalog;
    private final Coordinator coordinator;

    /** @param coordinator for built-in relations' contents (may be null when none are read) */
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
     * Runs {@code plan} at {@code in.asOf()} ({@code in} covers the plan's inputs; it is
     * ignored, and may be null, for a {@link PeekPlan.Constant}).
     */
    public Result run(PeekPlan plan, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        cancel.check();
        if (!(plan instanceof PeekPlan.Constant)) failOnExportErrors(plan, in);
        return switch (plan) {
            case PeekPlan.Constant c -> new Result(OneShotRead.run(c.body(), (id, t) -> {
                throw new IllegalStateException("a plan without inputs read " + id);
            }, in == null ? 0 : in.asOf(), ctx, cancel), 0);
            case PeekPlan.FastPathLookup l -> lookup(l, in, ctx, cancel);
            case PeekPlan.FastPathWalk w -> walk(w, in, ctx, cancel);
            case PeekPlan.PeekDataflow d -> new Result(OneShotRead.run(d.body(), source(d, in, cancel), in.asOf(), ctx,
                    cancel), 0);
        };
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

    private Result walk(PeekPlan.FastPathWalk w, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        CollectionReader.Snapshot s = in.export(w.export().exportId());
        RowSink sink = new RowSink(FusedMfp.compile(w.body(), ctx), cancel);
        long positions = s.walk(sink, cancel);
        return new Result(sink.finish(), positions);
    }

    private SnapshotSource source(PeekPlan.PeekDataflow d, PeekInputs in, Cancellation cancel) {
        return new SnapshotSource() {
            @Override
            public Changes read(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported != null) return in.export(imported.exportId()).contents(cancel);
                if (d.systemRelations().contains(id)) return SystemRelations.contents(id, catalog.get(), coordinator);
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
        private final Cancellation cancel;
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
