package io.stillwater.engine.compute;

import io.stillwater.engine.arrange.Cursor;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.Exchange;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One export's {@link CollectionReader} over its (possibly shared) {@link ExportTrace}.
 * Thread-safe: session threads call it concurrently with the workers maintaining the
 * trace. Dropping the export fails its pending {@link #readableAt} futures, even when the
 * trace lives on for a re-export or an importing dataflow.
 */
final class ExportReader implements CollectionReader {
    private final long exportId;
    private final ExportTrace trace;
    private final Set<CompletableFuture<Void>> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean dropped;

    ExportReader(long exportId, ExportTrace trace) {
        this.exportId = exportId;
        this.trace = trace;
    }

    ExportTrace trace() { return trace; }

    @Override
    public long exportId() { return exportId; }

    @Override
    public long collectionId() { return trace.collectionId(); }

    @Override
    public List<Expr> key() { return trace.keyOrColumns(); }

    @Override
    public long upper() { return trace.upper(); }

    @Override
    public CompletableFuture<Void> readableAt(long t) {
        if (dropped) return CompletableFuture.failedFuture(droppedError());
        CompletableFuture<Void> ready = trace.readableAt(t);
        if (ready.isDone() && !ready.isCompletedExceptionally()) return ready;
        CompletableFuture<Void> result = new CompletableFuture<>();
        pending.add(result);
        // A wait ends on a worker thread (the one completing the frontier): hand the
        // reader's continuation to another thread so it can never stall maintenance.
        ready.whenCompleteAsync((v, e) -> {
            if (e == null) result.complete(null);
            else result.completeExceptionally(e);
        });
        result.whenComplete((v, e) -> pending.remove(result));
        if (dropped) result.completeExceptionally(droppedError()); // raced with markDropped
        return result;
    }

    @Override
    public boolean holdsErrors() {
        long t = trace.upper() - 1;
        if (t < Long.MIN_VALUE + 1) return false; // not hydrated: nothing published yet
        // Counts are summed over the workers' parts, as firstError does.
        Map<Row, long[]> counts = new HashMap<>();
        for (int p = 0; p < trace.workers(); p++) {
            TraceSnapshot errors = trace.errorPart(p).snapshot();
            if (errors.batches().isEmpty()) continue;
            if (!errors.isReadableAt(t)) return true; // cannot tell: assume the worst
            errors.forEachAt(t, (k, v, d) -> counts.computeIfAbsent(k, x -> new long[1])[0] += d);
        }
        for (long[] c : counts.values()) if (c[0] > 0) return true;
        return false;
    }

    /** The export was dropped: pending and later waits fail. Called under the replica's lock. */
    void markDropped() {
        dropped = true;
        for (CompletableFuture<Void> f : pending) f.completeExceptionally(droppedError());
    }

    private SqlException droppedError() {
        return new SqlException(SqlState.UNDEFINED_OBJECT,
                "\"" + trace.name() + "\" (id " + exportId + ") was dropped while a read waited for it");
    }

    @Override
    public Snapshot snapshot(long asOf) {
        int w = trace.workers();
        List<ReadHold> holds = new ArrayList<>(2 * w);
        TraceSnapshot[] parts = new TraceSnapshot[w];
        TraceSnapshot[] errors = new TraceSnapshot[w];
        try {
            for (int p = 0; p < w; p++) {
                holds.add(hold(trace.part(p), asOf));
                holds.add(hold(trace.errorPart(p), asOf));
                parts[p] = trace.part(p).snapshot();
                errors[p] = trace.errorPart(p).snapshot();
                parts[p].checkReadableAt(asOf);
                errors[p].checkReadableAt(asOf);
            }
        } catch (RuntimeException e) {
            holds.forEach(ReadHold::close);
            if (e instanceof SqlException) throw e;
            throw new SqlException(SqlState.INTERNAL_ERROR, "internal error: cannot read \"" + trace.name()
                    + "\" at " + asOf + ": " + e.getMessage(), null, null, e);
        }
        return new PinnedSnapshot(asOf, parts, errors, holds);
    }

    @Override
    public Optional<Hold> tryHold(long t) {
        List<ReadHold> holds = new ArrayList<>();
        for (int p = 0; p < trace.workers(); p++) {
            for (Spine s : List.of(trace.part(p), trace.errorPart(p))) {
                Optional<ReadHold> h = s.tryAcquireHold(t);
                if (h.isEmpty()) {
                    holds.forEach(ReadHold::close);
                    return Optional.empty();
                }
                holds.add(h.get());
            }
        }
        return Optional.of(() -> holds.forEach(ReadHold::close));
    }

    private static ReadHold hold(Spine s, long asOf) {
        return s.acquireHold(asOf);
    }

    private final class PinnedSnapshot implements Snapshot {
        private final long asOf;
        private final TraceSnapshot[] parts;
        private final TraceSnapshot[] errors;
        private final List<ReadHold> holds;

        PinnedSnapshot(long asOf, TraceSnapshot[] parts, TraceSnapshot[] errors, List<ReadHold> holds) {
            this.asOf = asOf;
            this.parts = parts;
            this.errors = errors;
            this.holds = holds;
        }

        @Override
        public long asOf() { return asOf; }

        @Override
        public Optional<EvalError> firstError() {
            // Per-worker counts are summed: each error's total count decides.
            Map<Row, long[]> counts = new HashMap<>();
            for (TraceSnapshot e : errors) {
                if (e.batches().isEmpty()) continue;
                e.forEachAt(asOf, (k, v, d) -> counts.computeIfAbsent(k, x -> new long[1])[0] += d);
            }
            EvalError least = null;
            for (var e : counts.entrySet()) {
                if (e.getValue()[0] <= 0) continue;
                EvalError err = (EvalError) e.getKey().get(0);
                if (least == null || err.compareTo(least) < 0) least = err;
            }
            return Optional.ofNullable(least);
        }

        @Override
        public void lookup(Row key, RowVisitor visitor) {
            TraceSnapshot part = parts[Exchange.route(key.hashCode(), parts.length)];
            part.lookup(key, asOf, (k, v, d) -> visitor.accept(trace.rowOf(k, v), d));
        }

        @Override
        public long walk(RowVisitor visitor, Cancellation cancel) {
            Walk w = walker(visitor);
            w.advance(Long.MAX_VALUE, 4096, cancel);
            return w.positions();
        }

        @Override
        public Walk walker(RowVisitor visitor) {
            return new PartWalk(visitor);
        }

        /** Walks the parts in order; resumes where the last slice stopped (mid-key included). */
        private final class PartWalk implements Walk {
            private final RowVisitor visitor;
            private int part;
            private Cursor cursor;
            /** Positions of the parts already finished. */
            private long finished;

            PartWalk(RowVisitor visitor) { this.visitor = visitor; }

            @Override
            public long positions() { return finished + (cursor == null ? 0 : cursor.positions()); }

            @Override
            public boolean advance(long budget, long granularity, Cancellation cancel) {
                long start = positions();
                long nextCheck = start + Math.max(1, granularity);
                cancel.check();
                while (part < parts.length) {
                    if (cursor == null) cursor = parts[part].cursor();
                    Cursor c = cursor;
                    while (c.keyValid()) {
                        Row k = c.key();
                        while (c.valValid()) {
                            long d = c.diffAt(asOf);
                            if (d != 0) visitor.accept(trace.rowOf(k, c.val()), d);
                            c.stepVal();
                            long now = finished + c.positions();
                            if (now >= nextCheck) {
                                cancel.check();
                                nextCheck = now + Math.max(1, granularity);
                            }
                            if (now - start >= budget) return false;
                        }
                        c.stepKey();
                    }
                    finished += c.positions();
                    cursor = null;
                    part++;
                }
                return true;
            }
        }

        @Override
        public void close() { holds.forEach(ReadHold::close); }
    }
}
