package io.stillwater.engine.time;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Hands out write and read timestamps (ms since the epoch). Thread-safe, lock-free.
 *
 * <ul>
 *   <li>{@link #writeTimestamp()}: strictly increasing across all callers:
 *       {@code max(now, last + 1)}, so a clock that stalls or goes backwards never repeats
 *       or reorders timestamps.
 *   <li>{@link #applyWrite(long)}: the writer reports that the write at {@code ts} is
 *       applied (durable and visible in every table's arrangement).
 *   <li>{@link #readTimestamp()}: the latest applied write timestamp. Reading there is
 *       strict serializable: it is at or after every write acknowledged before the read
 *       began (writes are acknowledged only once applied).
 *   <li>{@link #observe(long)}: recovery: timestamps handed out later are {@code > ts}.
 * </ul>
 */
public final class TimestampOracle {
    private final LongSupplier clock;
    private final AtomicLong lastWrite;
    private final AtomicLong lastApplied;

    public TimestampOracle() { this(System::currentTimeMillis); }

    /** @param clock milliseconds since the epoch; injectable for tests */
    public TimestampOracle(LongSupplier clock) {
        this.clock = clock;
        this.lastWrite = new AtomicLong(Long.MIN_VALUE);
        this.lastApplied = new AtomicLong(Long.MIN_VALUE);
    }

    /** A new write timestamp, greater than every timestamp handed out or observed before. */
    public long writeTimestamp() {
        while (true) {
            long last = lastWrite.get();
            long now = clock.getAsLong();
            long ts = last == Long.MIN_VALUE ? now : Math.max(now, last + 1);
            if (lastWrite.compareAndSet(last, ts)) return ts;
        }
    }

    /**
     * Records that the write at {@code ts} is applied. Out-of-order calls are fine: the read
     * timestamp only moves forward (readers still wait for frontiers to pass it).
     */
    public void applyWrite(long ts) {
        lastApplied.accumulateAndGet(ts, Math::max);
        lastWrite.accumulateAndGet(ts, Math::max); // never hand out a write at or below it
    }

    /**
     * The timestamp a strict-serializable read uses: the latest applied write. Before any
     * write was applied there is nothing to be after, so it is the current time (never
     * below an earlier answer), and later write timestamps are made greater than it, so
     * reads never go back in time relative to writes.
     */
    public long readTimestamp() {
        long applied = lastApplied.get();
        if (applied != Long.MIN_VALUE) return applied;
        long now = clock.getAsLong();
        long floor = lastWrite.accumulateAndGet(now, Math::max);
        // Count it as an empty write applied at `floor`, so read timestamps never decrease.
        return lastApplied.accumulateAndGet(floor, Math::max);
    }

    /** Recovery: every later write timestamp is {@code > ts}. Does not change the read timestamp. */
    public void observe(long ts) {
        lastWrite.accumulateAndGet(ts, Math::max);
    }

    /** The last write timestamp handed out or observed ({@code Long.MIN_VALUE} if none). */
    public long lastWriteTimestamp() { return lastWrite.get(); }
}
