package io.stillwater.engine.plan;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * A planned SELECT: the relational {@code body} plus its <em>finishing</em>, applied to
 * the result rows after the dataflow produced them (as Materialize does): the top-level
 * ORDER BY, LIMIT (-1 for none) and OFFSET, and the output column names. The body's
 * columns may include sort-only columns past {@code columnNames.size()}; finishing
 * drops them.
 *
 * <p>{@code limitParam} / {@code offsetParam} are the 0-based index of the parameter
 * that gives LIMIT / OFFSET ({@code LIMIT $1}), or -1; {@link Plans#bindParams(QueryPlan,
 * List)} replaces them by constants, so a bound plan always has -1 there.
 */
public record QueryPlan(PlanNode body, List<SortKey> order, long limit, long offset,
                        List<String> columnNames, List<SqlType> columnTypes, int limitParam, int offsetParam) {
    public QueryPlan {
        order = List.copyOf(order);
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
    }

    /** A plan whose LIMIT and OFFSET are constants. */
    public QueryPlan(PlanNode body, List<SortKey> order, long limit, long offset,
                     List<String> columnNames, List<SqlType> columnTypes) {
        this(body, order, limit, offset, columnNames, columnTypes, -1, -1);
    }
}
