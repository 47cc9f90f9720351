package io.stillwater.bench.load;

/**
 * Executes an action once; the driver times each {@link #invoke()} call. An invoker used by an
 * open loop is called from many threads at once and must be thread-safe (or serialize inside
 * {@code invoke}, so the wait is timed). {@link #close()} releases what {@link InvokerFactory#open()}
 * acquired, outside timing.
 */
public interface Invoker extends AutoCloseable {
    void invoke() throws Exception;

    @Override
    default void close() throws Exception {
    }
}
