package io.stillwater.engine.plan;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * A planned SELECT: the relational {@code body} plus its <em>finishing</em>, applied to
 * the result rows after the dataflow produced them (as Materialize does): the top-level
 * ORDER BY, LIMIT (-1 for none) and OFFSET, and the output column names. The body's
 * columns may include sort-only columns past {@code columnNames.size()}; finishing
 * drops them.
 */
public record QueryPlan(PlanNode body, List<SortKey> order, long limit, long offset,
                        List<String> columnNames, List<SqlType> columnTypes) {
    public QueryPlan {
        order = List.copyOf(order);
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
    }
}
