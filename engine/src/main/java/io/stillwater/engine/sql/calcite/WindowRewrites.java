package io.stillwater.engine.sql.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWindow;

/**
 * Syntax-level adjustments of window function calls, applied by {@link PgSqlRewriter}
 * before validation.
 */
final class WindowRewrites {
    private WindowRewrites() {}

    /** By name (the parser leaves functions unresolved): the functions Calcite's validator refuses without ORDER BY (PostgreSQL accepts them: every row a peer). */
    private static final Set<String> NEED_ORDER = Set.of("RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE",
            "LAG", "LEAD");

    /**
     * {@code rank() OVER (PARTITION BY p)} without ORDER BY: PostgreSQL makes every row of the
     * partition a peer (rank 1, cume_dist 1, lag in the partition's arbitrary order). An
     * ORDER BY on a constant means exactly that, and Calcite accepts it.
     */
    static void orderUnordered(SqlCall over) {
        if (over.getKind() != SqlKind.OVER || !(over.operand(1) instanceof SqlWindow w)) return;
        if (!(over.operand(0) instanceof SqlCall f) || !NEED_ORDER.contains(f.getOperator().getName().toUpperCase(Locale.ROOT))) return;
        if (w.getRefName() != null || (w.getOrderList() != null && !w.getOrderList().isEmpty())) return;
        w.setOrderList(SqlNodeList.of(SqlLiteral.createBoolean(true, w.getParserPosition())));
    }
}
