package io.stillwater.engine.plan;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * One window function of a {@link PlanNode.Window}: {@code func(args...)} over the node's
 * partitions and order, reading {@code frame} when the function uses one. {@code args} are
 * input column indexes; for {@link WindowFunc#AGGREGATE} the aggregate is {@code aggregate}
 * (its own {@code args} are input columns too) and {@code args} is unused.
 */
public record WindowCall(WindowFunc func, List<Integer> args, AggCall aggregate, WindowFrame frame, SqlType type,
                         String name) {
    public WindowCall {
        args = List.copyOf(args);
        if ((func == WindowFunc.AGGREGATE) != (aggregate != null)) {
            throw new IllegalArgumentException("an aggregate window call has an AggCall, no other does: " + func);
        }
    }
}
