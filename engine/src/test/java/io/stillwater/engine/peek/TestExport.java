package io.stillwater.engine.peek;

import io.stillwater.engine.arrange.Cursor;
import io.stillwater.engine.arrange.KeyValUpdate;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real arrangement behind the {@link CollectionReader} contract, for tests: a spine of
 * {@code (key, row)} and a spine of errors, fed by {@link #hydrate} and {@link #step}
 * (one writer thread), compacted eagerly to the latest time like a table (read holds
 * keep older times readable). Counts open snapshots so tests can check they are closed.
 */
final class TestExport implements CollectionReader {
    private final long exportId;
    private final long collectionId;
    private final List<Expr> key;
    private final List<Evaluator> keyEval;
    private final CompletableFuture<Void> hydrated = new CompletableFuture<>();
    private volatile Spine rows;
    private volatile Spine errors;
    final AtomicInteger openSnapshots = new AtomicInteger();

    TestExport(long exportId, long collectionId, List<Expr> key) {
        this.exportId = exportId;
        this.collectionId = collectionId;
        this.key = List.copyOf(key);
        this.keyEval = ExprCompiler.compileAll(key, EvalContext.defaults());
    }

    @Override public long exportId() { return exportId; }

    @Override public long collectionId() { return collectionId; }

    @Override public List<Expr> key() { return key; }

    @Override
    public long upper() {
        Spine s = rows;
        return s == null ? Long.MIN_VALUE : s.upper();
    }

    @Override
    public CompletableFuture<Void> readableAt(long t) {
        return hydrated.thenCompose(v -> rows.readableAt(t).thenCompose(x -> errors.readableAt(t))).thenApply(x -> null);
    }

    /** Builds the arrangement from {@code contents} (rows) and {@code errs} at {@code asOf}. Writer. */
    void hydrate(long asOf, Changes contents, Changes errs) {
        Spine r = new Spine(asOf);
        Spine e = new Spine(asOf);
        rows = r;
        errors = e;
        insert(asOf, contents, errs);
        hydrated.complete(null);
    }

    /** Applies changes at {@code time} (after the upper). Writer. */
    void step(long time, Changes changes, Changes errs) {
        insert(time, changes, errs);
    }

    /** No changes before {@code upper}. Writer. */
    void advanceTo(long upper) {
        if (upper > rows.upper()) {
            rows.advanceUpper(upper);
            errors.advanceUpper(upper);
        }
    }

    /** Fails every waiting and future reader. */
    void drop() {
        hydrated.completeExceptionally(new IllegalStateException("export " + exportId + " was dropped"));
    }

    private void insert(long time, Changes changes, Changes errs) {
        List<KeyValUpdate> ups = new ArrayList<>();
        Changes keyErrors = new Changes();
        for (int i = 0; i < changes.size(); i++) {
            Row row = changes.row(i);
            Object[] k = new Object[keyEval.size()];
            try {
                for (int j = 0; j < k.length; j++) k[j] = keyEval.get(j).eval(row);
                ups.add(new KeyValUpdate(Row.wrap(k), row, time, changes.diff(i)));
            } catch (SqlException ex) {
                keyErrors.add(Row.of(ex.toEvalError()), changes.diff(i));
            }
        }
        List<KeyValUpdate> errUps = new ArrayList<>();
        for (Changes c : List.of(errs, keyErrors)) {
            for (int i = 0; i < c.size(); i++) errUps.add(new KeyValUpdate(c.row(i), Row.EMPTY, time, c.diff(i)));
        }
        rows.insert(ups, time + 1);
        errors.insert(errUps, time + 1);
        rows.setLogicalCompaction(time);
        errors.setLogicalCompaction(time);
    }

    @Override
    public Snapshot snapshot(long asOf) {
        ReadHold rh = rows.acquireHold(asOf);
        ReadHold eh;
        try {
            eh = errors.acquireHold(asOf);
        } catch (RuntimeException e) {
            rh.close();
            throw e;
        }
        openSnapshots.incrementAndGet();
        TraceSnapshot rs = rows.snapshot();
        TraceSnapshot es = errors.snapshot();
        return new Snapshot() {
            private boolean closed;

            @Override public long asOf() { return asOf; }

            @Override
            public Optional<EvalError> firstError() {
                EvalError[] least = {null};
                es.forEachAt(asOf, (k, v, d) -> {
                    EvalError e = (EvalError) k.get(0);
                    if (d > 0 && (least[0] == null || e.compareTo(least[0]) < 0)) least[0] = e;
                });
                return Optional.ofNullable(least[0]);
            }

            @Override
            public void lookup(Row k, RowVisitor visitor) {
                rs.lookup(k, asOf, (kk, v, d) -> visitor.accept(v, d));
            }

            @Override
            public long walk(RowVisitor visitor, Cancellation cancel) {
                rs.checkReadableAt(asOf);
                long positions = 0;
                Cursor c = rs.cursor();
                while (c.keyValid()) {
                    while (c.valValid()) {
                        if (++positions % 64 == 0) cancel.check();
                        long d = c.diffAt(asOf);
                        if (d > 0) visitor.accept(c.val(), d);
                        c.stepVal();
                    }
                    c.stepKey();
                }
                return positions;
            }

            @Override
            public void close() {
                if (closed) return;
                closed = true;
                rh.close();
                eh.close();
                openSnapshots.decrementAndGet();
            }
        };
    }
}
