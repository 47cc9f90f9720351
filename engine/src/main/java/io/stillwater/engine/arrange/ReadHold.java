package io.stillwater.engine.arrange;

/**
 * A reader's claim on a time of a {@link Spine}: while it is open, the spine's logical
 * compaction ({@code since}) does not pass {@link #time()}, so snapshots stay readable at
 * that time. Thread-safe: readers take, move and release holds from any thread.
 *
 * <p>Closing is idempotent. A reader that moves forward (a dataflow importing the
 * arrangement) calls {@link #advanceTo} so compaction can follow it.
 */
public final class ReadHold implements AutoCloseable {
    private final ReadHolds holds;
    private long time; // guarded by holds
    private boolean closed; // guarded by holds

    ReadHold(ReadHolds holds, long time) {
        this.holds = holds;
        this.time = time;
    }

    /** The held time. */
    public long time() {
        synchronized (holds) {
            return time;
        }
    }

    /** Moves the hold forward to {@code t}; a no-op if {@code t} is not later. */
    public void advanceTo(long t) {
        synchronized (holds) {
            if (closed) throw new IllegalStateException("read hold already released");
            if (t <= time) return;
            holds.moveLocked(time, t);
            time = t;
        }
    }

    public boolean isClosed() {
        synchronized (holds) {
            return closed;
        }
    }

    /** Releases the hold; the spine may compact past its time at its next step. */
    @Override
    public void close() {
        synchronized (holds) {
            if (closed) return;
            closed = true;
            holds.releaseLocked(time);
        }
    }

    @Override
    public String toString() { return "ReadHold[" + time() + (isClosed() ? ", released]" : "]"); }
}
