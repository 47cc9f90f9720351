package io.stillwater.pgwire.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide bound on bytes held for client messages that have not arrived
 * completely. A {@link PgDecoder} reserves a message's whole declared length when its
 * header arrives and the body does not fit in what has been read yet, and releases it
 * once the message is complete or its connection ends; a reservation that would pass
 * {@link #limit} is refused, and the decoder ends that connection instead of buffering.
 * So many connections each sending part of a large message cannot exhaust memory,
 * whatever the per-message limit.
 *
 * <p>Thread-safe: every connection's event loop reserves and releases concurrently.
 * Invariant: {@code 0 <= reserved() <= limit()}.
 */
public final class InputBudget {
    /** Default limit: room for sixteen messages of the default maximum size. */
    public static final long DEFAULT_LIMIT = 256L << 20;

    private final long limit;
    private final AtomicLong reserved = new AtomicLong();

    public InputBudget(long limit) {
        if (limit < 1) throw new IllegalArgumentException("input budget must be positive: " + limit);
        this.limit = limit;
    }

    /** Reserves {@code bytes} if that keeps the total within the limit; false (nothing reserved) otherwise. */
    public boolean tryReserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (now + bytes > limit) return false;
            if (reserved.compareAndSet(now, now + bytes)) return true;
        }
    }

    /** Gives back {@code bytes} reserved earlier. */
    public void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /** Bytes reserved now, over all connections. */
    public long reserved() { return reserved.get(); }

    public long limit() { return limit; }
}
