package io.stillwater.engine.arrange;

import java.util.TreeMap;

/**
 * The read holds of one spine and its effective {@code since}, shared between the spine's
 * writer and reader threads. Every field is guarded by {@code this}.
 *
 * <p>Invariant: {@code since} only grows, and never passes a held time: a hold can be
 * taken only at {@code t >= since}, and the writer advances {@code since} to at most the
 * least held time.
 */
final class ReadHolds {
    private final TreeMap<Long, Integer> counts = new TreeMap<>();
    private long since;

    ReadHolds(long initialSince) {
        this.since = initialSince;
    }

    synchronized long since() { return since; }

    /** Advances {@code since} towards {@code requested}, stopping at the least held time. */
    synchronized long advance(long requested) {
        long target = counts.isEmpty() ? requested : Math.min(requested, counts.firstKey());
        if (target > since) since = target;
        return since;
    }

    /** A hold at {@code t}, or null when {@code t} was already compacted away. */
    synchronized ReadHold tryAcquire(long t) {
        if (t < since) return null;
        counts.merge(t, 1, Integer::sum);
        return new ReadHold(this, t);
    }

    synchronized ReadHold acquireAtSince() {
        counts.merge(since, 1, Integer::sum);
        return new ReadHold(this, since);
    }

    /** Caller holds the lock (via ReadHold's synchronized methods on this object). */
    void moveLocked(long from, long to) {
        release(from);
        counts.merge(to, 1, Integer::sum);
    }

    void releaseLocked(long t) {
        release(t);
    }

    private void release(long t) {
        Integer n = counts.get(t);
        if (n == null) throw new IllegalStateException("no hold at " + t);
        if (n == 1) counts.remove(t);
        else counts.put(t, n - 1);
    }

    synchronized int holdCount() {
        int n = 0;
        for (int c : counts.values()) n += c;
        return n;
    }
}
