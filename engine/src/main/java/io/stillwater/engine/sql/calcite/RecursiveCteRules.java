package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * PostgreSQL's rules for a {@code WITH RECURSIVE} item that references itself (all 42P19),
 * checked on the parsed statement because Calcite either accepts what PostgreSQL refuses
 * (an aggregate over the working table, which never converges the same way) or reports
 * it as a missing relation: the query must be {@code non-recursive-term UNION [ALL]
 * recursive-term}; the non-recursive term must not name it; the recursive term must name
 * it exactly once, not inside a subquery nor on the nullable side of an outer join, and
 * must not aggregate it.
 */
final class RecursiveCteRules {
    private RecursiveCteRules() {}

    static void check(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlWith with) {
                    for (SqlNode n : with.withList) {
                        SqlWithItem item = (SqlWithItem) n;
                        if (item.recursive.booleanValue()) checkItem(item);
                    }
                }
                return super.visit(call);
            }
        });
    }

    private static void checkItem(SqlWithItem item) {
        String name = item.name.getSimple();
        SqlNode query = item.query instanceof SqlOrderBy o ? o.query : item.query;
        if (references(query, name) == 0) return; // not actually recursive: an ordinary CTE
        if (query.getKind() != SqlKind.UNION || ((SqlCall) query).operandCount() != 2) {
            throw error("recursive query \"" + name + "\" does not have the form non-recursive-term UNION [ALL] recursive-term");
        }
        SqlNode base = ((SqlCall) query).operand(0);
        SqlNode step = ((SqlCall) query).operand(1);
        if (references(base, name) > 0) {
            throw error("recursive reference to query \"" + name + "\" must not appear within its non-recursive term");
        }
        if (references(step, name) > 1) {
            throw error("recursive reference to query \"" + name + "\" must not appear more than once");
        }
        SqlNode stepQuery = step instanceof SqlOrderBy o ? o.query : step;
        if (stepQuery instanceof SqlSelect select) {
            if (select.getFrom() == null || fromItems(select.getFrom(), name) == 0) {
                throw error("recursive reference to query \"" + name + "\" must not appear within a subquery");
            }
            if (outerJoinNullable(select.getFrom(), name, false)) {
                throw error("recursive reference to query \"" + name + "\" must not appear within an outer join");
            }
            if (select.getGroup() != null || hasAggregate(select.getSelectList()) || select.getHaving() != null) {
                throw error("aggregate functions are not allowed in a recursive query's recursive term");
            }
        }
    }

    private static SqlException error(String message) {
        return new SqlException(SqlState.INVALID_RECURSION, message);
    }

    /** How many FROM items (in {@code node} and the queries nested in it) name {@code name}. */
    private static int references(SqlNode node, String name) {
        int[] count = {0};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s) {
                    if (s.getFrom() != null) count[0] += fromItems(s.getFrom(), name);
                    for (SqlNode op : s.getOperandList()) if (op != null && op != s.getFrom()) op.accept(this);
                    return null;
                }
                return super.visit(call);
            }
        });
        return count[0];
    }

    /** Items of a FROM clause naming {@code name} (subqueries in it are queries of their own). */
    private static int fromItems(SqlNode from, String name) {
        return switch (from) {
            case SqlJoin j -> fromItems(j.getLeft(), name) + fromItems(j.getRight(), name);
            case SqlIdentifier id -> id.names.size() == 1 && id.getSimple().equals(name) ? 1 : 0;
            case SqlCall c when c.getKind() == SqlKind.AS -> fromItems(c.operand(0), name);
            case SqlCall c when c.isA(SqlKind.QUERY) -> references(c, name); // a derived table
            default -> 0;
        };
    }

    /** Whether {@code name} is on a side of an outer join that the join pads with NULLs. */
    private static boolean outerJoinNullable(SqlNode from, String name, boolean nullable) {
        if (from instanceof SqlJoin j) {
            JoinType t = j.getJoinType();
            boolean leftNullable = nullable || t == JoinType.RIGHT || t == JoinType.FULL;
            boolean rightNullable = nullable || t == JoinType.LEFT || t == JoinType.FULL;
            return outerJoinNullable(j.getLeft(), name, leftNullable) || outerJoinNullable(j.getRight(), name, rightNullable);
        }
        return nullable && fromItems(from, name) > 0;
    }

    private static final java.util.Set<String> AGGREGATES = java.util.Set.of("count", "sum", "avg", "min", "max",
            "string_agg", "array_agg", "jsonb_agg", "jsonb_object_agg", "json_agg", "bool_and", "bool_or", "every",
            "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop", "bit_and", "bit_or");

    private static boolean hasAggregate(SqlNode node) {
        if (node == null) return false;
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER) return null; // a window function is not a grouping aggregate
                // Before validation functions are unresolved: known aggregates by name.
                if (call.getOperator().isAggregator()
                        || AGGREGATES.contains(call.getOperator().getName().toLowerCase(java.util.Locale.ROOT))) {
                    found[0] = true;
                }
                if (call instanceof SqlSelect) return null;
                return super.visit(call);
            }
        });
        return found[0];
    }
}
