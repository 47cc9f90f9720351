package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;

/**
 * The error collection of a pipelined read, consolidated as errors arrive (a query failing
 * on every one of 100M rows holds one entry, not 100M). Owned by the read's thread.
 */
final class ErrorCollection {
    private final Counts counts = new Counts();

    /** Adds errors an operator produced (single-column rows holding an {@link EvalError}). */
    void add(Changes errors) {
        for (int i = 0; i < errors.size(); i++) counts.update(errors.row(i), errors.diff(i));
    }

    /** The least error whose accumulated count is positive, or null if there is none. */
    EvalError least() {
        EvalError least = null;
        for (var e : counts.entries()) {
            if (e.getValue()[0] <= 0) continue;
            EvalError err = (EvalError) e.getKey().get(0);
            if (least == null || err.compareTo(least) < 0) least = err;
        }
        return least;
    }

    /** Throws the least present error, if any. */
    void failIfAny() {
        if (counts.isEmpty()) return;
        EvalError least = least();
        if (least != null) throw least.toException();
    }

    static Row row(EvalError e) { return Row.wrap(new Object[] {e}); }
}
