package io.stillwater.engine.compute;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How far a replica's maintenance trails the writes handed to it: the measure write
 * backpressure admits writes by (the coordinator's {@code WriteAdmission}).
 *
 * <p><b>What is measured.</b> Every committed write reaches the workers as one {@link
 * Command.Input}, numbered in hand-over order ({@code seq}) and stamped with {@link
 * System#nanoTime()} when the coordinator handed it over. A worker reports each input
 * once it has processed it, with how long that took. The backlog, in time, is the larger
 * of
 * <ul>
 *   <li>the <em>age of the oldest input some worker has not processed</em>: the frontier
 *       lag maintenance causes right now (it grows while one expensive write is being
 *       processed), and
 *   <li>the <em>time to process what is queued</em>: for each worker, its unprocessed
 *       inputs times its recent processing time per input (a moving average). This is
 *       the lag the newest queued write will have once processed; without it, a burst of
 *       cheap-to-write, expensive-to-maintain writes would all be admitted while the
 *       oldest was still young, and the lag would overshoot the bound by the whole burst.
 * </ul>
 * Both are wall-clock queueing measures, independent of write timestamps (which run
 * ahead of the clock under a burst of writes).
 *
 * <p><b>Hydration does not count.</b> While a dataflow hydrates, its worker processes
 * the inputs queued meanwhile for every other dataflow between two hydration chunks and
 * holds back the hydrating dataflow's share (see {@code Worker#interleave}); those
 * inputs count as processed. So a CREATE INDEX on a big table delays writes by at most a
 * chunk's worth of work, not its whole hydration: the new index is not readable until it
 * has hydrated anyway, and the held-back inputs are bounded by what the other dataflows
 * let through. (A hydration that fits in one chunk is not interleaved: its inputs wait
 * for that one chunk.)
 *
 * <p><b>Threads.</b> {@link #handedOver} is called by the runtime under its broadcast
 * lock (one order for all workers); {@link #processed} by worker {@code w} only, for its
 * own inputs, in seq order; {@link #now} by any thread. The stamps are guarded by
 * {@code this}; the workers' progress and costs are atomic arrays each worker writes only
 * at its own index, so a worker never waits for a reader.
 */
public final class MaintenanceBacklog {
    /**
     * The backlog at one moment.
     *
     * @param oldestAgeNanos age of the oldest input some worker has not processed (0: none)
     * @param queuedWrites   inputs the slowest worker has not processed
     * @param drainNanos     the longest time any worker needs for its unprocessed inputs, at its recent cost per input
     * @param perWriteNanos  the slowest worker's recent processing time per input (a moving average)
     * @param peakLagNanos   the longest any input took from hand-over until a worker had processed it, since
     *                       the replica started: the worst frontier lag maintenance caused
     */
    public record Status(long oldestAgeNanos, long queuedWrites, long drainNanos, long perWriteNanos,
                         long peakLagNanos) {
        public static final Status NONE = new Status(0, 0, 0, 0, 0);

        /** The backlog as time: the larger of the oldest input's age and the queue's processing time. */
        public long lagNanos() { return Math.max(oldestAgeNanos, drainNanos); }

        /**
         * {@link #lagNanos()} once {@code more} writes (admitted, not yet handed over) are
         * queued too. While writes are queued and no worker has measured a cost per write
         * yet (a replica's first writes), the cost is unknown: that counts as unbounded, so
         * the first writes go one group at a time until one has been processed.
         */
        public long lagNanos(long more) {
            if (queuedWrites > 0 && perWriteNanos == 0) return Long.MAX_VALUE;
            return Math.max(oldestAgeNanos, drainNanos + more * perWriteNanos);
        }

        public long lagMillis() { return lagNanos() / 1_000_000; }

        /** The worse of two replicas' backlogs, field by field (the slowest replica decides admission). */
        public Status max(Status o) {
            return new Status(Math.max(oldestAgeNanos, o.oldestAgeNanos), Math.max(queuedWrites, o.queuedWrites),
                    Math.max(drainNanos, o.drainNanos), Math.max(perWriteNanos, o.perWriteNanos),
                    Math.max(peakLagNanos, o.peakLagNanos));
        }
    }

    /** Weight of the newest input in the moving average of the cost per input (1/8). */
    private static final int AVERAGE_SHIFT = 3;

    private record Stamp(long seq, long nanos) {}

    /** Per worker: the seq of the last input it processed (0: none). Written by that worker only. */
    private final AtomicLongArray done;
    /** Per worker: its moving average of nanoseconds per processed input. Written by that worker only. */
    private final AtomicLongArray costNanos;
    /** Inputs handed over and not yet known to be processed by every worker, oldest first. Guarded by this. */
    private final ArrayDeque<Stamp> stamps = new ArrayDeque<>();
    /** The seq of the last input handed over. Guarded by this. */
    private long lastSeq;
    /** The longest hand-over-to-processed time of any input so far. */
    private final AtomicLong peakLagNanos = new AtomicLong();
    /** Called on a worker thread after each processed input; set once before inputs flow. */
    private volatile Runnable listener = () -> {};

    MaintenanceBacklog(int workers) {
        this.done = new AtomicLongArray(workers);
        this.costNanos = new AtomicLongArray(workers);
    }

    /** Calls {@code r} on a worker thread whenever a worker finishes an input. It must be quick and never block. */
    void onProgress(Runnable r) { listener = r; }

    /** A new input goes to the workers now; returns its seq. Under the runtime's broadcast lock. */
    synchronized long handedOver(long nanos) {
        prune();
        long seq = ++lastSeq;
        stamps.addLast(new Stamp(seq, nanos));
        return seq;
    }

    /**
     * Worker {@code w} has processed input {@code seq}, handed over at {@code handedOverNanos},
     * in {@code tookNanos} (inputs are processed in seq order).
     */
    void processed(int w, long seq, long handedOverNanos, long tookNanos) {
        peakLagNanos.accumulateAndGet(System.nanoTime() - handedOverNanos, Math::max);
        long avg = costNanos.get(w);
        costNanos.set(w, avg == 0 ? tookNanos : avg + ((tookNanos - avg) >> AVERAGE_SHIFT));
        done.accumulateAndGet(w, seq, Math::max);
        listener.run();
    }

    /** The backlog now. Any thread. */
    public synchronized Status now(long nowNanos) {
        prune();
        Stamp oldest = stamps.peekFirst();
        long queued = 0, drain = 0, perWrite = 0;
        for (int w = 0; w < done.length(); w++) {
            long behind = Math.max(0, lastSeq - done.get(w));
            long cost = costNanos.get(w);
            queued = Math.max(queued, behind);
            drain = Math.max(drain, behind * cost);
            perWrite = Math.max(perWrite, cost);
        }
        long age = oldest == null ? 0 : Math.max(0, nowNanos - oldest.nanos());
        return new Status(age, queued, drain, perWrite, peakLagNanos.get());
    }

    /** Drops the stamps every worker has processed. Under this. */
    private void prune() {
        long min = Long.MAX_VALUE;
        for (int w = 0; w < done.length(); w++) min = Math.min(min, done.get(w));
        while (!stamps.isEmpty() && stamps.peekFirst().seq() <= min) stamps.pollFirst();
    }

    /** The replica stopped: nothing it was handed is pending any more. */
    synchronized void clear() {
        stamps.clear();
        for (int w = 0; w < done.length(); w++) done.accumulateAndGet(w, lastSeq, Math::max);
        listener.run();
    }
}
