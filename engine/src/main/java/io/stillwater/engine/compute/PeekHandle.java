package io.stillwater.engine.compute;

import io.stillwater.engine.params.Params;

/**
 * A read a replica is serving. The session awaits it; awaiting is cancellable.
 *
 * @param <R> the read's result
 */
public interface PeekHandle<R> {
    /**
     * Waits for the result, polling the request's cancellation. When the statement is
     * cancelled or times out, the read is stopped wherever it is (a queued or parked read
     * never starts; a running one stops at its next check) and this returns only after it
     * has stopped, so the caller may release the read's snapshots at once.
     *
     * @throws io.stillwater.engine.error.SqlException the read's error, or 57014
     */
    R await();

    /** The runtime that serves (or served) the read. */
    ComputeRuntime runtime();

    /** Whether the rest of a walk was handed to the offload pool. */
    boolean offloaded();

    /**
     * The session finished pulling a streamed result ({@link PeekWork#streams}): the read
     * ends now, with {@code error} (null: success). Harmless for a read that did not
     * stream, and after the first call.
     */
    default void streamEnded(Throwable error) {}

    /**
     * Runs {@code request} to completion on the calling thread: for a compute with no
     * runtimes of its own (tests, {@link ComputeController#NONE}).
     */
    static <R> PeekHandle<R> runHere(PeekRequest<R> request) {
        PeekWork<R> work = request.work();
        long granularity = request.params() == null ? Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY.defaultValue()
                : request.params().get(Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY);
        while (!work.advance(Long.MAX_VALUE, granularity, request.cancel())) {
            // a walk finishing in several slices
        }
        R result = work.result();
        return new PeekHandle<>() {
            public R await() { return result; }
            public ComputeRuntime runtime() { return ComputeRuntime.SOLO; }
            public boolean offloaded() { return false; }
        };
    }
}
