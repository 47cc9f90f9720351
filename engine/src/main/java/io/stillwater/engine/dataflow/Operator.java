package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;

/**
 * One operator of a {@link Dataflow}, written once for updates: at every time step it
 * receives the changes of each input at that time (in increasing time order) and returns
 * its output changes at the same time, keeping whatever state it needs between steps.
 * The accumulated output after any step equals the operator applied to the accumulated
 * inputs (exactly, retractions included).
 *
 * <p>Evaluation errors are data: an operator appends the errors it produces itself to
 * {@code errors} (with the diff of the row that caused them) and carries on. Errors of its
 * inputs are not its business; the dataflow collects every operator's errors.
 *
 * <p>State is owned by the operator and touched only by the thread stepping the dataflow.
 */
abstract class Operator {
    /** How many rows an operator processes between cancellation checks. */
    static final int CHECK_EVERY = 4096;

    protected final Cancellation cancel;

    protected Operator(Cancellation cancel) { this.cancel = cancel; }

    abstract Changes step(Changes[] inputs, Changes errors);

    /** Polls cancellation every {@link #CHECK_EVERY} iterations of a loop counter. */
    protected final void tick(int i) {
        if ((i & (CHECK_EVERY - 1)) == CHECK_EVERY - 1) cancel.check();
    }

    static Row errorRow(SqlException e) { return errorRow(e.toEvalError()); }

    static Row errorRow(EvalError e) { return Row.wrap(new Object[] {e}); }
}
