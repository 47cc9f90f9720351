package io.stillwater.engine.plan;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * One aggregate in a {@link PlanNode.Reduce}: {@code func(DISTINCT? args...)
 * [FILTER (WHERE filterColumn)] [ORDER BY order]}. {@code args} and {@code filterColumn}
 * are input column indexes ({@code filterColumn} is -1 when absent, else a boolean column).
 * {@code order} only matters for order-sensitive aggregates (string_agg).
 */
public record AggCall(AggFunc func, List<Integer> args, boolean distinct, int filterColumn,
                      List<SortKey> order, SqlType type, String name) {
    public AggCall {
        args = List.copyOf(args);
        order = List.copyOf(order);
    }
}
