package io.stillwater.engine.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory all running queries may reserve together: {@link #POOL_FRACTION} of the
 * maximum heap for the process-wide pool ({@link #process()}). Whatever is left of the
 * heap is never handed to queries, so tables, indexes, maintenance, small reads and
 * cancellation keep working while queries are at their budgets.
 *
 * <p>Thread-safe: reservations are a compare-and-set on one counter. Callers reserve in
 * grants of about a megabyte ({@link QueryMemory}), not per row.
 */
public final class MemoryPool {
    /** The share of the maximum heap that queries may reserve together. */
    public static final double POOL_FRACTION = 0.65;

    private static final MemoryPool PROCESS =
            new MemoryPool((long) (Runtime.getRuntime().maxMemory() * POOL_FRACTION));

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    /** A pool of {@code capacity} bytes (tests build small ones; the engine uses {@link #process()}). */
    public MemoryPool(long capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("capacity must be positive: " + capacity);
        this.capacity = capacity;
    }

    /** The pool every session of this process reserves from. */
    public static MemoryPool process() { return PROCESS; }

    public long capacity() { return capacity; }

    /** Bytes reserved by running queries now. */
    public long reserved() { return reserved.get(); }

    /** Reserves {@code bytes} if they fit under the capacity; false (and nothing reserved) otherwise. */
    boolean tryReserve(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative reservation: " + bytes);
        while (true) {
            long now = reserved.get();
            if (now + bytes > capacity) return false;
            if (reserved.compareAndSet(now, now + bytes)) return true;
        }
    }

    /** Returns {@code bytes} reserved earlier. */
    void release(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative release: " + bytes);
        long after = reserved.addAndGet(-bytes);
        if (after < 0) throw new IllegalStateException("pool released more than was reserved: " + after);
    }
}
