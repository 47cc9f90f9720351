package io.stillwater.engine.memory;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.ParamType;

/**
 * One query's memory account: what its read holds now (join hash tables, aggregation and
 * top-k state, sort buffers, buffered chunks, result rows kept for the client), in
 * estimated heap bytes. Every reservation counts against the query's budget; past
 * {@link #FREE_BYTES} it is also drawn from the {@link MemoryPool}, in grants of
 * {@link #GRANT} bytes, so small reads (constants, lookups, short scans) never touch the
 * pool and still work when running queries have reserved all of it.
 *
 * <p>Exceeding the budget or the pool throws 53200 from {@link #reserve}, naming the
 * budget and the parameter. {@link #close} returns everything to the pool, however the
 * read ended; it is idempotent, and reservations after it are refused.
 *
 * <p>Threads: used by one thread at a time (the session's, or the worker a read was
 * handed to, with a happens-before edge through the hand-over); the methods are
 * synchronized anyway so that a late {@link #close} from another thread is safe.
 */
public final class QueryMemory implements AutoCloseable {
    /** What a query may hold without drawing from the pool. */
    public static final long FREE_BYTES = 1L << 20;
    /** The unit in which a query draws from (and returns to) the pool. */
    static final long GRANT = 1L << 20;
    /** The parameter that sets the budget. */
    public static final String PARAMETER = "max_query_memory";

    private final MemoryPool pool;
    private final long budget;
    private long used;
    private long granted;
    private long peak;
    private boolean closed;

    /**
     * @param pool   where reservations past {@link #FREE_BYTES} come from (null: none, only the budget)
     * @param budget the most this query may hold, in bytes
     */
    public QueryMemory(MemoryPool pool, long budget) {
        if (budget <= 0) throw new IllegalArgumentException("budget must be positive: " + budget);
        this.pool = pool;
        this.budget = budget;
    }

    /** A query on the process pool with the budget {@code max_query_memory} gives ({@link #budgetFor}). */
    public static QueryMemory forQuery(long maxQueryMemory) {
        return new QueryMemory(MemoryPool.process(), budgetFor(maxQueryMemory));
    }

    /** Accounting without limits: for tests and tools that run reads outside a session. */
    public static QueryMemory unlimited() { return new QueryMemory(null, Long.MAX_VALUE); }

    /**
     * The budget in bytes for a {@code max_query_memory} setting: the setting itself, or
     * for 0 (the default) a quarter of the maximum heap.
     */
    public static long budgetFor(long maxQueryMemory) {
        return maxQueryMemory > 0 ? maxQueryMemory : Math.max(GRANT, Runtime.getRuntime().maxMemory() / 4);
    }

    public long budget() { return budget; }

    /** Bytes accounted now. */
    public synchronized long used() { return used; }

    /** The most this query held at once. */
    public synchronized long peak() { return peak; }

    /**
     * Accounts {@code bytes} more (non-positive: nothing).
     *
     * @throws SqlException 53200 when the budget or the pool would be exceeded (nothing is reserved then)
     */
    public synchronized void reserve(long bytes) {
        if (bytes <= 0) return;
        if (closed) throw new IllegalStateException("reservation after the read's memory was released");
        long want = used + bytes;
        if (want < 0 || want > budget) throw budgetExceeded();
        long fromPool = want - FREE_BYTES - granted;
        if (fromPool > 0 && pool != null) {
            long grant = roundUp(fromPool);
            if (!pool.tryReserve(grant)) throw poolExhausted();
            granted += grant;
        }
        used = want;
        peak = Math.max(peak, used);
    }

    /** Returns {@code bytes} accounted earlier (at most what is accounted); surplus grants go back to the pool. */
    public synchronized void release(long bytes) {
        if (bytes <= 0 || closed) return;
        used -= Math.min(bytes, used);
        long needed = roundUp(Math.max(0, used - FREE_BYTES));
        if (pool != null && granted - needed > GRANT) {
            pool.release(granted - needed);
            granted = needed;
        }
    }

    /** Releases everything this query holds. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        used = 0;
        if (pool != null && granted > 0) pool.release(granted);
        granted = 0;
    }

    private static long roundUp(long bytes) {
        return (bytes + GRANT - 1) / GRANT * GRANT;
    }

    private SqlException budgetExceeded() {
        return new SqlException(SqlState.OUT_OF_MEMORY,
                "query exceeded its memory budget of " + ParamType.ByteSizeType.human(budget) + " (" + PARAMETER + ")",
                null,
                "Read less (add a WHERE clause or a LIMIT, join on equalities), or raise " + PARAMETER
                        + " (ALTER SYSTEM SET " + PARAMETER + " = '...', as mz_system).");
    }

    private SqlException poolExhausted() {
        return new SqlException(SqlState.OUT_OF_MEMORY,
                "query exceeded the memory available to all queries: "
                        + ParamType.ByteSizeType.human(pool.reserved()) + " of "
                        + ParamType.ByteSizeType.human(pool.capacity())
                        + " is reserved by running queries (its own budget is "
                        + ParamType.ByteSizeType.human(budget) + ", " + PARAMETER + ")",
                null,
                "Retry when other queries have finished, or lower " + PARAMETER + " so that each query holds less.");
    }
}
