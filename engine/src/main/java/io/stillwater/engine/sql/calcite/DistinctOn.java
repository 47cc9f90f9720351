package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Litmus;

/**
 * {@code SELECT DISTINCT ON (d1, ...) items FROM ... ORDER BY o1, ...}: the first row of each
 * group of rows equal on the DISTINCT ON expressions, first in ORDER BY order (an arbitrary
 * but deterministic one without ORDER BY), as in PostgreSQL.
 *
 * <p>Babel cannot parse it, so {@link PgTokens} respells {@code DISTINCT ON (d...)} as a
 * leading select item {@code "?distinct_on"(d...)}, and {@link PgSqlRewriter} hands the
 * SELECT (with the ORDER BY around it) here, which removes that item and adds
 * <pre>QUALIFY row_number() OVER (PARTITION BY d... ORDER BY o...) = 1</pre>
 * (Calcite's filter on window functions, evaluated after GROUP BY and HAVING, as DISTINCT
 * ON is). The ORDER BY stays the query's. DISTINCT ON and ORDER BY items that are output
 * column names or ordinals are replaced by the select item they name, as PostgreSQL reads them.
 */
final class DistinctOn {
    private DistinctOn() {}

    /** The select item {@link PgTokens} writes for {@code DISTINCT ON (...)}. */
    static final String MARKER = "?distinct_on";

    static boolean marked(SqlNode node) {
        return node instanceof SqlSelect s && !s.getSelectList().isEmpty()
                && s.getSelectList().get(0) instanceof SqlBasicCall c
                && c.getOperator().getName().equals(MARKER);
    }

    /** Rewrites a marked SELECT in place; {@code orderList} is the ORDER BY around it (null or empty: none). */
    static void apply(SqlSelect select, SqlNodeList orderList) {
        SqlCall marker = (SqlCall) select.getSelectList().get(0);
        SqlParserPos pos = marker.getParserPosition();
        List<SqlNode> items = new ArrayList<>(select.getSelectList().getList().subList(1, select.getSelectList().size()));
        select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
        if (select.getQualify() != null) {
            throw RexToExpr.unsupported("DISTINCT ON together with QUALIFY");
        }
        List<SqlNode> distinct = new ArrayList<>();
        for (SqlNode d : marker.getOperandList()) distinct.add(resolve(d, items));
        List<SqlNode> order = new ArrayList<>();
        List<SqlNode> orderBases = new ArrayList<>();
        if (orderList != null) {
            for (SqlNode o : orderList) {
                SqlNode base = o;
                List<SqlOperator> wrappers = new ArrayList<>();
                while (base.getKind() == SqlKind.DESCENDING || base.getKind() == SqlKind.NULLS_FIRST
                        || base.getKind() == SqlKind.NULLS_LAST) {
                    wrappers.add(0, ((SqlCall) base).getOperator());
                    base = ((SqlCall) base).operand(0);
                }
                base = resolve(base, items);
                orderBases.add(base);
                SqlNode rebuilt = base;
                for (SqlOperator w : wrappers) rebuilt = w.createCall(o.getParserPosition(), rebuilt);
                order.add(rebuilt);
            }
        }
        // PostgreSQL: the DISTINCT ON expressions must be the leading ORDER BY expressions (in any order).
        for (int k = 0; k < Math.min(distinct.size(), orderBases.size()); k++) {
            SqlNode o = orderBases.get(k);
            if (distinct.stream().noneMatch(d -> d.equalsDeep(o, Litmus.IGNORE))) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE,
                        "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
            }
        }
        SqlWindow window = SqlWindow.create(null, null, new SqlNodeList(distinct, pos), new SqlNodeList(order, pos),
                SqlLiteral.createBoolean(false, pos), null, null, null, pos);
        SqlNode rowNumber = SqlStdOperatorTable.OVER.createCall(pos, SqlStdOperatorTable.ROW_NUMBER.createCall(pos), window);
        select.setQualify(SqlStdOperatorTable.EQUALS.createCall(pos, rowNumber, SqlLiteral.createExactNumeric("1", pos)));
    }

    /** An output column name or ordinal becomes the select item it names; anything else stays. */
    private static SqlNode resolve(SqlNode e, List<SqlNode> items) {
        if (e instanceof SqlNumericLiteral n && n.isInteger()) {
            int i = n.getValueAs(BigDecimal.class).intValue();
            if (i < 1 || i > items.size() || items.stream().anyMatch(DistinctOn::isStar)) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "SELECT DISTINCT ON position " + i + " is not in select list");
            }
            return expression(items.get(i - 1));
        }
        if (e instanceof SqlIdentifier id && id.isSimple()) {
            for (SqlNode item : items) {
                if (item.getKind() == SqlKind.AS && ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple().equals(id.getSimple())) {
                    return ((SqlCall) item).operand(0);
                }
            }
        }
        return e;
    }

    private static SqlNode expression(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    private static boolean isStar(SqlNode item) {
        return item instanceof SqlIdentifier id && id.isStar();
    }
}
