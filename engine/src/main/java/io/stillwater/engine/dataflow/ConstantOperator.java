package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import java.util.List;

/** A constant collection: inserted at the dataflow's first step, unchanged afterwards. */
final class ConstantOperator extends Operator {
    private final List<Row> rows;
    private boolean emitted;

    ConstantOperator(List<Row> rows, Cancellation cancel) {
        super(cancel);
        this.rows = rows;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        if (emitted) return Changes.empty();
        emitted = true;
        return Changes.insertAll(rows);
    }
}
