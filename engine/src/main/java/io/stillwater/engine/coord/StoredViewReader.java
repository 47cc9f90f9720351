package io.stillwater.engine.coord;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A materialized view's reader while its dataflow hydrates after a restart: reads at a
 * time the stored contents answer ({@link StoredViews.Stored#answers}) are served from
 * them at once; any other read goes to the dataflow's reader ({@code live}) and waits for
 * it as usual. Where both could answer, the hydrated dataflow is preferred (same rows at
 * the same time). Thread-safe: the stored rows are immutable and {@code live} is.
 *
 * <p>{@code live} is null only in the moment between recovery and the view's dataflow
 * being created (and in tests that hold the creation back): a read the stored rows cannot
 * answer then fails with 55000 instead of waiting for a dataflow that may never come.
 */
final class StoredViewReader implements CollectionReader {
    private final StoredViews.Stored stored;
    private final CollectionReader live;

    StoredViewReader(StoredViews.Stored stored, CollectionReader live) {
        this.stored = stored;
        this.live = live;
    }

    @Override
    public long exportId() { return stored.view.id(); }

    @Override
    public long collectionId() { return stored.view.id(); }

    @Override
    public List<Expr> key() { return live != null ? live.key() : stored.key; }

    @Override
    public long upper() {
        long own = stored.upper();
        return live == null ? own : Math.max(own, live.upper());
    }

    @Override
    public CompletableFuture<Void> readableAt(long t) {
        // MIN_VALUE asks "hydrated?": the stored rows always answer some time (T at least).
        if (t == Long.MIN_VALUE || stored.answers(t)) return CompletableFuture.completedFuture(null);
        if (live != null) return live.readableAt(t);
        return CompletableFuture.failedFuture(notRunning(t));
    }

    @Override
    public Optional<Hold> tryHold(long t) { return live == null ? Optional.empty() : live.tryHold(t); }

    @Override
    public Snapshot snapshot(long asOf) {
        boolean fromStore = stored.answers(asOf);
        if (live != null && live.upper() != Long.MIN_VALUE && asOf < live.upper()) {
            try {
                return live.snapshot(asOf);
            } catch (RuntimeException e) {
                if (!fromStore) throw e; // compacted past asOf: the stored rows still answer
            }
        }
        if (fromStore) return new StoredSnapshot(asOf, stored.rows);
        if (live != null) return live.snapshot(asOf);
        throw notRunning(asOf);
    }

    private SqlException notRunning(long t) {
        return new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "materialized view \"" + stored.view.name()
                + "\" is not readable at " + t + " yet: its inputs changed after the checkpoint and its dataflow is not running",
                null, "Try again once the server has finished starting.");
    }

    /** The stored rows, pinned at {@code asOf} (nothing to release: they never change). Single reader thread. */
    private record StoredSnapshot(long asOf, Map<Row, Long> rows) implements Snapshot {
        @Override
        public Optional<EvalError> firstError() { return Optional.empty(); }

        @Override
        public void lookup(Row key, RowVisitor visitor) {
            Long diff = rows.get(key); // a materialized view's key is the whole row
            if (diff != null) visitor.accept(key, diff);
        }

        @Override
        public long walk(RowVisitor visitor, Cancellation cancel) {
            long positions = 0;
            for (var e : rows.entrySet()) {
                if ((++positions & 1023) == 0) cancel.check();
                visitor.accept(e.getKey(), e.getValue());
            }
            return positions;
        }

        @Override
        public void close() {
            // nothing is held
        }
    }
}
