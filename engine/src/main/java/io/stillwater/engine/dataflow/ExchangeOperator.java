package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * Sends each input update to the worker owning its key (columns {@code keyColumns}, or
 * the whole row when null) and emits the updates this worker receives. Placed before
 * every keyed operator of a data-parallel dataflow; never built for a single worker.
 */
final class ExchangeOperator extends Operator {
    private final Exchange exchange;
    private final int[] keyColumns;

    ExchangeOperator(Exchange exchange, int[] keyColumns, Cancellation cancel) {
        super(cancel);
        this.exchange = exchange;
        this.keyColumns = keyColumns == null ? null : keyColumns.clone();
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        return exchange.exchange(Exchange.partition(inputs[0], keyColumns, exchange.peers()));
    }
}
