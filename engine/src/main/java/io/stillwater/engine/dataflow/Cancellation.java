package io.stillwater.engine.dataflow;

/**
 * Polled by long-running work (operators, walks) to stop promptly when the statement is
 * cancelled or times out. {@link #check} throws {@link io.stillwater.engine.error.SqlException}
 * with SQLSTATE 57014 once cancellation was requested.
 */
@FunctionalInterface
public interface Cancellation {
    Cancellation NONE = () -> {};

    void check();
}
