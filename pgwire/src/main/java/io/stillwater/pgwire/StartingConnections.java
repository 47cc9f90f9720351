package io.stillwater.pgwire;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server-wide bound on connections that have not finished startup: accepted
 * sockets that have not yet sent a StartupMessage (or whose session is being opened).
 * A socket beyond it is refused with FATAL 53300 before it gets a worker thread or any
 * other per-connection resource, so a flood of idle sockets cannot exhaust threads or
 * memory. Once startup succeeds the connection leaves this count; from then on the
 * engine's {@code max_connections} bounds it.
 *
 * <p>Thread-safe. Invariant: {@code 0 <= count() <= limit()}.
 */
final class StartingConnections {
    /** Default bound: enough for a burst of clients connecting at once. */
    static final int DEFAULT_LIMIT = 256;

    private final int limit;
    private final AtomicInteger count = new AtomicInteger();

    StartingConnections(int limit) {
        if (limit < 1) throw new IllegalArgumentException("the limit of starting connections must be positive: " + limit);
        this.limit = limit;
    }

    /** Takes a slot if one is free. */
    boolean tryEnter() {
        while (true) {
            int now = count.get();
            if (now >= limit) return false;
            if (count.compareAndSet(now, now + 1)) return true;
        }
    }

    /** Gives back a slot taken by {@link #tryEnter}. */
    void leave() {
        count.decrementAndGet();
    }

    int count() { return count.get(); }

    int limit() { return limit; }
}
