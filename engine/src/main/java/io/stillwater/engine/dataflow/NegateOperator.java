package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/** Negates every diff (the subtrahend of EXCEPT/INTERSECT). Linear and stateless. */
final class NegateOperator extends Operator {
    NegateOperator(Cancellation cancel) { super(cancel); }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        return new Changes(in.size()).addAllNegated(in);
    }
}
