package io.stillwater.engine.coord;

import io.stillwater.engine.dataflow.Cancellation;

/**
 * How long a write may wait for admission under write backpressure, and how it learns
 * that it was cancelled: the statement's own {@link Cancellation} (cancel request,
 * {@code statement_timeout}) and its deadline, so a waiting writer wakes exactly then.
 *
 * @param cancel        throws 57014 once the statement is cancelled or timed out
 * @param deadlineNanos {@link System#nanoTime()} at which the statement times out; 0: never
 */
public record AdmissionLimit(Cancellation cancel, long deadlineNanos) {
    /** Waits as long as it takes (embedded callers and tests without a statement). */
    public static final AdmissionLimit NONE = new AdmissionLimit(Cancellation.NONE, 0);

    /** A limit for a statement with {@code cancel}, timing out {@code timeoutMillis} from now (0: never). */
    public static AdmissionLimit of(Cancellation cancel, long timeoutMillis) {
        return new AdmissionLimit(cancel, timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000 : 0);
    }
}
