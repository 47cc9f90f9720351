package io.stillwater.engine.compute;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How far a replica's maintenance trails the writes handed to it: the measure write
 * backpressure admits writes by (the coordinator's {@code WriteAdmission}).
 *
 * <p><b>What is measured.</b> Every committed write reaches the workers as one {@link
 * Command.Input}, numbered in hand-over order ({@code seq}) and stamped with {@link
 * System#nanoTime()} when the coordinator handed it over. A worker reports each input
 * once it has processed it. The backlog is the age of the oldest input that some worker
 * has not processed yet (0 when every worker is caught up), plus how many inputs that
 * is. It is a queueing delay in wall-clock time, independent of write timestamps (which
 * run ahead of the clock under a burst of writes).
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
 * {@code this}; the workers' progress is an atomic array, so a worker never waits for a
 * reader.
 */
public final class MaintenanceBacklog {
    /** The backlog at one moment: age of the oldest unprocessed write, and how many are unprocessed. */
    public record Status(long ageNanos, long writes) {
        public static final Status NONE = new Status(0, 0);

        public long ageMillis() { return ageNanos / 1_000_000; }

        /** The larger of two backlogs (the slowest replica decides admission). */
        public Status max(Status o) {
            return new Status(Math.max(ageNanos, o.ageNanos), Math.max(writes, o.writes));
        }
    }

    private record Stamp(long seq, long nanos) {}

    /** Per worker: the seq of the last input it processed (0: none). */
    private final AtomicLongArray done;
    /** Inputs handed over and not yet known to be processed by every worker, oldest first. Guarded by this. */
    private final ArrayDeque<Stamp> stamps = new ArrayDeque<>();
    /** The seq of the last input handed over. Guarded by this. */
    private long lastSeq;
    /** Called on a worker thread after each processed input; set once before inputs flow. */
    private volatile Runnable listener = () -> {};

    MaintenanceBacklog(int workers) {
        this.done = new AtomicLongArray(workers);
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

    /** Worker {@code w} has processed input {@code seq} (inputs are processed in seq order). */
    void processed(int w, long seq) {
        done.accumulateAndGet(w, seq, Math::max);
        listener.run();
    }

    /** The backlog now. Any thread. */
    public synchronized Status now(long nowNanos) {
        long caughtUp = prune();
        Stamp oldest = stamps.peekFirst();
        if (oldest == null) return Status.NONE;
        return new Status(Math.max(0, nowNanos - oldest.nanos()), lastSeq - caughtUp);
    }

    /** Drops the stamps every worker has processed; returns the least processed seq. Under this. */
    private long prune() {
        long min = Long.MAX_VALUE;
        for (int w = 0; w < done.length(); w++) min = Math.min(min, done.get(w));
        while (!stamps.isEmpty() && stamps.peekFirst().seq() <= min) stamps.pollFirst();
        return min;
    }

    /** The replica stopped: nothing it was handed is pending any more. */
    synchronized void clear() {
        stamps.clear();
        for (int w = 0; w < done.length(); w++) done.accumulateAndGet(w, lastSeq, Math::max);
        listener.run();
    }
}
