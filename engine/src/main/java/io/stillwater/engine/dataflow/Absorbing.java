package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * A stateful operator (reduce, distinct/threshold, top-k) as a pipelined one-shot read
 * drives it: it {@link #absorb}s its input chunk by chunk, emitting nothing (so a group
 * that changes with every chunk produces no churn downstream), and once the input is
 * complete {@link #emit}s its output in bounded pieces. The output is bounded by the
 * state, which {@link #stateBytes} estimates for the read's memory budget.
 *
 * <p>{@link Operator#step} of the same operator is exactly {@code absorb} then every
 * {@code emit}, so maintained dataflows and one-shot reads share one implementation.
 */
interface Absorbing {
    /** Adds a chunk of input to the state. */
    void absorb(Changes in, Changes errors);

    /**
     * Up to about {@code max} output changes since the last complete emit (possibly none),
     * or null once all of it was emitted (the next absorb starts a new round).
     */
    Changes emit(int max, Changes errors);

    /** Estimated heap bytes of the operator's state now. */
    long stateBytes();
}
