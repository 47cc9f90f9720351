package io.stillwater.engine.compute;

import io.stillwater.engine.dataflow.Cancellation;

/**
 * The work of one read, as the read path built it (over inputs it pinned); the replica
 * decides where and in which slices it runs. Used by one thread at a time (the replica
 * hands it between threads only through a queue, so each slice sees the last one's state).
 *
 * @param <R> the read's result
 */
public interface PeekWork<R> {
    /**
     * Does at most about {@code positions} cursor positions of the read ({@code
     * Long.MAX_VALUE}: all of it), calling {@code cancel.check()} at least every {@code
     * granularity} positions. Returns true once the read is complete. Only walks are
     * resumable; lookups and dataflows finish in one call whatever the budget.
     *
     * @throws io.stillwater.engine.error.SqlException the read's error, or 57014 when cancelled
     */
    boolean advance(long positions, long granularity, Cancellation cancel);

    /** The result, after {@link #advance} returned true. */
    R result();

    /**
     * Whether the result is still being produced when {@link #advance} returns: rows the
     * session pulls afterwards on the same thread (a peek dataflow on the interactive
     * runtime, which is thread-per-read). The read then stays in flight until the session
     * reports its end ({@link PeekHandle#streamEnded}).
     */
    default boolean streams() { return false; }
}
