package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Set-returning functions in the select list ({@code SELECT id, unnest(tags) FROM j}),
 * with PostgreSQL 10+'s meaning, moved into FROM where {@link TableFunctions} plans them:
 * the function becomes a FROM item that sees the others ({@code FROM j, unnest(j.tags) AS
 * "?srf"(c1)}) and the item becomes a reference to its column. A row for which the
 * function returns nothing produces no output row, as in PostgreSQL. Several unnest calls
 * run in lockstep, padded with NULLs: they become one zipping {@code unnest(a, b, ...)}.
 * Supported at the top level of select items of a query without GROUP BY, HAVING or
 * aggregates over the function (PostgreSQL then runs the function after grouping).
 */
final class SelectListFunctions {
    private static final String ALIAS = "?srf";
    /** The name a select-list unnest(...) is parsed under ({@link PgTokens}: UNNEST is a keyword to Babel). */
    static final String UNNEST_CALL = "pg_unnest";

    private SelectListFunctions() { }

    /** Rewrites {@code select} in place when its select list calls set-returning functions. */
    static void moveToFrom(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        if (items == null) return;
        List<Integer> at = new ArrayList<>();
        List<SqlCall> calls = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SqlCall c = setReturning(expr(items.get(i)));
            if (c != null) {
                at.add(i);
                calls.add(c);
            } else if (containsSetReturning(expr(items.get(i)))) {
                throw unsupported("set-returning functions inside expressions in the select list are not supported; "
                        + "call the function in FROM (FROM t, unnest(t.a) AS x)");
            }
        }
        if (calls.isEmpty()) return;
        if (select.getGroup() != null || select.getHaving() != null) {
            throw unsupported("set-returning functions in the select list of a grouped query are not supported");
        }
        SqlParserPos pos = select.getParserPosition();
        SqlNode function;
        if (calls.size() == 1 && !name(calls.get(0)).equals("unnest")) {
            function = calls.get(0);
            if (name(calls.get(0)).equals("generate_series") && select.getFrom() != null) {
                throw unsupported("generate_series in the select list of a query with FROM is not supported; "
                        + "use FROM t, LATERAL generate_series(...)");
            }
            function = SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, function);
        } else {
            List<SqlNode> arrays = new ArrayList<>();
            for (SqlCall c : calls) {
                if (!name(c).equals("unnest")) {
                    throw unsupported("several set-returning functions in one select list are supported only for unnest");
                }
                arrays.addAll(c.getOperandList());
            }
            function = SqlStdOperatorTable.UNNEST.createCall(pos, arrays);
        }
        List<SqlNode> as = new ArrayList<>();
        as.add(function);
        as.add(new SqlIdentifier(ALIAS, pos));
        for (int k = 0; k < calls.size(); k++) as.add(new SqlIdentifier("c" + (k + 1), pos));
        SqlNode item = SqlStdOperatorTable.AS.createCall(pos, as);
        if (select.getFrom() != null) {
            item = TableFunctions.implicitlyLateral(item);
            item = new SqlJoin(pos, select.getFrom(), SqlLiteral.createBoolean(false, pos), JoinType.COMMA.symbol(pos),
                    item, JoinConditionType.NONE.symbol(pos), null);
        }
        select.setFrom(item);
        List<SqlNode> out = new ArrayList<>(items.getList());
        for (int k = 0; k < at.size(); k++) {
            SqlNode old = items.get(at.get(k));
            SqlNode ref = new SqlIdentifier(List.of(ALIAS, "c" + (k + 1)), pos);
            SqlIdentifier name = old.getKind() == SqlKind.AS ? ((SqlCall) old).operand(1)
                    : new SqlIdentifier(name(calls.get(k)), pos);
            out.set(at.get(k), SqlStdOperatorTable.AS.createCall(pos, ref, name));
        }
        select.setSelectList(new SqlNodeList(out, items.getParserPosition()));
    }

    private static boolean containsSetReturning(SqlNode node) {
        if (!(node instanceof SqlCall c) || node.getKind() == SqlKind.SELECT) return false;
        if (setReturning(node) != null) return true;
        for (SqlNode op : c.getOperandList()) if (op != null && containsSetReturning(op)) return true;
        return false;
    }

    private static SqlNode expr(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    /** The call if {@code node} is a call of a single-column set-returning function, else null. */
    private static SqlCall setReturning(SqlNode node) {
        if (!(node instanceof SqlCall c) || c.getOperator() == null) return null;
        if (node.getKind() == SqlKind.UNNEST) return c;
        return switch (name(c)) {
            case "unnest", "jsonb_array_elements", "jsonb_array_elements_text", "jsonb_object_keys",
                    "generate_subscripts", "generate_series" -> c;
            default -> null;
        };
    }

    private static String name(SqlCall c) {
        if (c.getKind() == SqlKind.UNNEST) return "unnest";
        String name = c.getOperator().getName().toLowerCase(Locale.ROOT);
        return name.equals(UNNEST_CALL) ? "unnest" : name;
    }

    private static SqlException unsupported(String message) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, message);
    }
}
