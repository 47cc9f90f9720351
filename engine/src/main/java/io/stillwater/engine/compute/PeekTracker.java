package io.stillwater.engine.compute;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A replica's record of its reads: the ones in flight, the last {@link #HISTORY_LIMIT}
 * finished ones, and a histogram of durations. Thread-safe: tasks register and finish on
 * any thread; introspection reads copies.
 */
final class PeekTracker {
    /** Finished reads kept for {@code mz_peek_history}. */
    static final int HISTORY_LIMIT = 10_000;

    private final String cluster;
    private final String replica;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, PeekTask<?>> active = new ConcurrentHashMap<>();
    /** Oldest first. Guarded by itself. */
    private final ArrayDeque<ReplicaIntrospection.PeekRecord> history = new ArrayDeque<>();
    /** (kind, bucket upper bound in ns) to count. Guarded by itself. */
    private final TreeMap<String, TreeMap<Long, Long>> histogram = new TreeMap<>();

    PeekTracker(String cluster, String replica) {
        this.cluster = cluster;
        this.replica = replica;
    }

    long nextId() { return nextId.getAndIncrement(); }

    void started(PeekTask<?> t) { active.put(t.id, t); }

    /** {@code t} ended ({@code error} null: success). Called once per task. */
    void finished(PeekTask<?> t, Throwable error) {
        if (active.remove(t.id) == null) return; // already recorded
        long nanos = System.nanoTime() - t.submittedNanos;
        ReplicaIntrospection.PeekRecord r = new ReplicaIntrospection.PeekRecord(t.id, t.request.statement(), cluster,
                replica, t.runtime, t.request.kind(), t.offloaded(), nanos / 1e6, PeekTask.outcome(error), Instant.now());
        synchronized (history) {
            history.addLast(r);
            while (history.size() > HISTORY_LIMIT) history.removeFirst();
        }
        long bucket = Long.highestOneBit(Math.max(1, nanos));
        if (bucket < nanos) bucket <<= 1;
        synchronized (histogram) {
            histogram.computeIfAbsent(t.request.kind().label(), k -> new TreeMap<>()).merge(bucket, 1L, Long::sum);
        }
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

    List<ReplicaIntrospection.PeekRecord> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    List<ReplicaIntrospection.DurationBucket> histogram() {
        List<ReplicaIntrospection.DurationBucket> out = new ArrayList<>();
        synchronized (histogram) {
            histogram.forEach((kind, buckets) -> buckets.forEach((ns, n) ->
                    out.add(new ReplicaIntrospection.DurationBucket(kind, ns, n))));
        }
        return out;
    }
}
