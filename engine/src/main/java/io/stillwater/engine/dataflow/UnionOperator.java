package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/** UNION ALL: the sum of its inputs' changes. Linear and stateless. */
final class UnionOperator extends Operator {
    UnionOperator(Cancellation cancel) { super(cancel); }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        int n = 0;
        for (Changes c : inputs) n += c.size();
        Changes out = new Changes(n);
        for (Changes c : inputs) out.addAll(c);
        return out;
    }
}
