package io.stillwater.engine.compute;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A replica's record of its reads: the ones in flight, the last {@link #HISTORY_LIMIT}
 * finished ones, and a histogram of durations. Thread-safe: tasks register and finish on
 * any thread; introspection reads copies.
 *
 * <p>Every read of every session passes through {@link #finished}, so it takes no lock
 * all sessions share: the history is a ring of slots claimed by an atomic counter, and
 * the histogram a fixed array of power-of-two buckets per kind, counted atomically.
 * Readers of either see a moment's state; a record whose slot was claimed but not yet
 * filled is simply not seen yet.
 */
final class PeekTracker {
    /** Finished reads kept for {@code mz_peek_history}. */
    static final int HISTORY_LIMIT = 10_000;

    private final String cluster;
    private final String replica;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, PeekTask<?>> active = new ConcurrentHashMap<>();
    /** Finished reads: record number n (from 0) in slot n % HISTORY_LIMIT. */
    private final AtomicReferenceArray<Slot> history = new AtomicReferenceArray<>(HISTORY_LIMIT);
    /** Records written to the history so far (the next record's number). */
    private final AtomicLong recorded = new AtomicLong();
    /**
     * Per kind (by ordinal), the count of durations in bucket b (upper bound 2^b ns, the
     * least power of two at or above the duration).
     */
    private final AtomicLongArray[] histogram = new AtomicLongArray[PeekKind.values().length];

    /** A history record with its number, so a reader can put slots back in order. */
    private record Slot(long number, ReplicaIntrospection.PeekRecord record) {}

    PeekTracker(String cluster, String replica) {
        this.cluster = cluster;
        this.replica = replica;
        for (int k = 0; k < histogram.length; k++) histogram[k] = new AtomicLongArray(Long.SIZE);
    }

    long nextId() { return nextId.getAndIncrement(); }

    void started(PeekTask<?> t) { active.put(t.id, t); }

    /** {@code t} ended ({@code error} null: success). Called once per task. */
    void finished(PeekTask<?> t, Throwable error) {
        if (active.remove(t.id) == null) return; // already recorded
        long nanos = System.nanoTime() - t.submittedNanos;
        ReplicaIntrospection.PeekRecord r = new ReplicaIntrospection.PeekRecord(t.id, t.request.statement(), cluster,
                replica, t.runtime, t.request.kind(), t.offloaded(), nanos / 1e6, PeekTask.outcome(error), Instant.now());
        long n = recorded.getAndIncrement();
        history.set((int) (n % HISTORY_LIMIT), new Slot(n, r));
        histogram[t.request.kind().ordinal()].incrementAndGet(bucketOf(nanos));
    }

    /** The exponent of the least power of two at or above {@code nanos} (at least 1 ns). */
    static int bucketOf(long nanos) {
        long v = Math.max(1, nanos);
        int b = 63 - Long.numberOfLeadingZeros(v);
        return (1L << b) < v ? b + 1 : b;
    }

    List<ReplicaIntrospection.ActivePeek> active() {
        List<ReplicaIntrospection.ActivePeek> out = new ArrayList<>();
        for (PeekTask<?> t : active.values()) {
            PeekTask.State s = t.state();
            if (s == PeekTask.State.DONE) continue;
            out.add(new ReplicaIntrospection.ActivePeek(t.id, t.request.indexId(), t.request.asOf(), t.runtime,
                    t.request.kind(), s.name().toLowerCase(Locale.ROOT), t.request.statement()));
        }
        out.sort(Comparator.comparingLong(ReplicaIntrospection.ActivePeek::id));
        return out;
    }

    /** The last {@link #HISTORY_LIMIT} finished reads, oldest first. */
    List<ReplicaIntrospection.PeekRecord> history() {
        long end = recorded.get();
        long from = Math.max(0, end - HISTORY_LIMIT);
        List<Slot> slots = new ArrayList<>();
        for (long n = from; n < end; n++) {
            Slot s = history.get((int) (n % HISTORY_LIMIT));
            // Not yet filled (null), or overwritten by a newer record since `end` was read.
            if (s != null && s.number() >= from && s.number() < end) slots.add(s);
        }
        slots.sort(Comparator.comparingLong(Slot::number));
        List<ReplicaIntrospection.PeekRecord> out = new ArrayList<>(slots.size());
        for (Slot s : slots) out.add(s.record());
        return out;
    }

    /** Non-empty duration buckets by kind label, then bucket bound: (kind, upper bound in ns, count). */
    List<ReplicaIntrospection.DurationBucket> histogram() {
        List<ReplicaIntrospection.DurationBucket> out = new ArrayList<>();
        List<PeekKind> kinds = new ArrayList<>(List.of(PeekKind.values()));
        kinds.sort(Comparator.comparing(PeekKind::label));
        for (PeekKind kind : kinds) {
            AtomicLongArray buckets = histogram[kind.ordinal()];
            for (int b = 0; b < buckets.length(); b++) {
                long count = buckets.get(b);
                if (count != 0) out.add(new ReplicaIntrospection.DurationBucket(kind.label(), 1L << b, count));
            }
        }
        return out;
    }
}
