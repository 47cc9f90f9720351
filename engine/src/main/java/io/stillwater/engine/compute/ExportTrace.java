package io.stillwater.engine.compute;

import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The output arrangement of one maintained dataflow, shared by every export that reads it
 * (an index, its re-exports, a materialized view) and by dataflows that import it.
 *
 * <p>Partitioned by worker: part {@code w} ({@link #part}, {@link #errorPart}) holds the
 * rows whose arrangement key routes to worker {@code w} ({@code Exchange.route(key.hashCode(), W)}),
 * and that worker's share of the error collection. <b>Threads:</b> worker {@code w} is
 * the only writer of its parts (the spines' single-writer rule); readers on any thread
 * take holds and published snapshots. The frontier ({@link #upper()}) is the minimum over
 * the workers' reported part uppers, {@code Long.MIN_VALUE} until every worker hydrated;
 * it and its waiters are guarded by {@code this}.
 *
 * <p>Rows: an index part is keyed by the evaluated key with the whole row as value; a
 * materialized view's (and an error part's) key is the whole row with an empty value.
 */
final class ExportTrace {
    private final long dataflowId;
    private final String name;
    private final long collectionId;
    /** The key expressions; null when arranged by the whole row (materialized views). */
    private final List<Expr> key;
    private final List<Expr> keyOrColumns;
    private final Spine[] parts;
    private final Spine[] errorParts;

    // ---- frontier, guarded by this
    private final long[] partUpper;
    private int hydratedParts;
    /** System.nanoTime() when every part had hydrated (the export became readable); 0 before. */
    private long readableSinceNanos;
    private long upper = Long.MIN_VALUE;
    private final TreeMap<Long, List<CompletableFuture<Void>>> waiters = new TreeMap<>();
    private RuntimeException failure;

    // ---- reference count, guarded by the ComputeReplica's lock
    int refs;
    boolean retired;

    // ---- introspection counters (any thread)
    final AtomicLong hydrationSteps = new AtomicLong();
    final AtomicLong steps = new AtomicLong();

    ExportTrace(long dataflowId, String name, long collectionId, List<Expr> key, List<Expr> keyOrColumns,
                int workers, long asOf) {
        this.dataflowId = dataflowId;
        this.name = name;
        this.collectionId = collectionId;
        this.key = key == null ? null : List.copyOf(key);
        this.keyOrColumns = List.copyOf(keyOrColumns);
        this.parts = new Spine[workers];
        this.errorParts = new Spine[workers];
        for (int w = 0; w < workers; w++) {
            parts[w] = new Spine(asOf);
            errorParts[w] = new Spine(asOf);
        }
        this.partUpper = new long[workers];
        Arrays.fill(partUpper, Long.MIN_VALUE);
    }

    long dataflowId() { return dataflowId; }

    String name() { return name; }

    long collectionId() { return collectionId; }

    boolean byWholeRow() { return key == null; }

    List<Expr> key() { return key; }

    /** The key as CollectionReader reports it: the key, or every column. */
    List<Expr> keyOrColumns() { return keyOrColumns; }

    int workers() { return parts.length; }

    Spine part(int w) { return parts[w]; }

    Spine errorPart(int w) { return errorParts[w]; }

    /** The row a part stores as {@code (key, val)}. */
    Row rowOf(Row k, Row v) { return key == null ? k : v; }

    // ---------------------------------------------------------------- frontier

    /** Worker {@code w} hydrated its part (or later advanced it) to {@code partUpper}. */
    void reportUpper(int w, long newUpper) {
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        synchronized (this) {
            if (partUpper[w] == Long.MIN_VALUE && newUpper != Long.MIN_VALUE) hydratedParts++;
            partUpper[w] = Math.max(partUpper[w], newUpper);
            if (hydratedParts < partUpper.length || failure != null) return;
            if (readableSinceNanos == 0) readableSinceNanos = Math.max(1, System.nanoTime());
            long min = Long.MAX_VALUE;
            for (long u : partUpper) min = Math.min(min, u);
            if (min <= upper) return;
            upper = min;
            Map<Long, List<CompletableFuture<Void>>> done = waiters.headMap(upper);
            done.values().forEach(ready::addAll);
            done.clear();
        }
        for (CompletableFuture<Void> f : ready) f.complete(null); // outside the lock
    }

    synchronized long upper() { return upper; }

    /** Whether the export has been readable for at least {@code millis} of wall-clock time. */
    synchronized boolean readableFor(long millis) {
        return readableSinceNanos != 0 && System.nanoTime() - readableSinceNanos >= millis * 1_000_000L;
    }

    synchronized boolean hydrated() { return hydratedParts == partUpper.length; }

    synchronized boolean failed() { return failure != null; }

    /** Completes once hydrated with {@code upper() > t}; fails if the dataflow fails or is torn down. */
    CompletableFuture<Void> readableAt(long t) {
        synchronized (this) {
            if (failure != null) return CompletableFuture.failedFuture(failure);
            if (t < upper) return CompletableFuture.completedFuture(null);
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiters.computeIfAbsent(t, k -> new ArrayList<>(1)).add(f);
            return f;
        }
    }

    /** The dataflow failed or was torn down: fails every waiter now and later. */
    void fail(RuntimeException cause) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        synchronized (this) {
            if (failure != null) return;
            failure = cause;
            waiters.values().forEach(all::addAll);
            waiters.clear();
        }
        for (CompletableFuture<Void> f : all) f.completeExceptionally(cause);
    }

    static SqlException failedError(String name, Throwable cause) {
        return new SqlException(SqlState.INTERNAL_ERROR,
                "internal error: the dataflow maintaining \"" + name + "\" failed: " + cause, null, null, cause);
    }

    // ---------------------------------------------------------------- introspection

    /** Updates stored over all parts (not rows at some time). */
    long updateCount() {
        long n = 0;
        for (Spine s : parts) n += s.snapshot().updateCount();
        return n;
    }

    long batchCount() {
        long n = 0;
        for (Spine s : parts) n += s.snapshot().batches().size();
        return n;
    }
}
