package io.stillwater.engine.sql.calcite;

import org.apache.calcite.sql.type.SqlTypeFamily;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's rules that Calcite does not enforce, checked on the parse tree during
 * validation ({@link PgValidator}). Each rejects only what PostgreSQL 15 rejects, with its
 * SQLSTATE ({@code 1 || 2} too); where a rule cannot be decided (a {@code *} in the select list, an input
 * whose columns are unknown) the statement is left to Calcite.
 */
final class PgQueryRules {
    private PgQueryRules() {}

    /**
     * ORDER BY: a bare name that is the output name of two select items with different
     * expressions is ambiguous (42702; {@code SELECT 1 AS a, 2 AS a ORDER BY a}); under
     * SELECT DISTINCT every ORDER BY expression must be one of the select list's (42P10;
     * {@code SELECT DISTINCT a FROM t ORDER BY a + 1}).
     */
    static void checkOrderBy(SqlSelect select) {
        SqlNodeList order = select.getOrderList();
        if (order == null || order.isEmpty()) return;
        List<SqlNode> items = select.getSelectList().getList();
        boolean star = items.stream().anyMatch(i -> i instanceof SqlIdentifier id && id.isStar());
        for (SqlNode o : order) {
            SqlNode key = sortKey(o);
            if (key instanceof SqlIdentifier id && id.isSimple()) {
                String matched = null;
                for (SqlNode item : items) {
                    if (!id.getSimple().equals(outputName(item))) continue;
                    String expr = normalized(expression(item));
                    if (matched != null && !matched.equals(expr)) {
                        throw new SqlException(SqlState.AMBIGUOUS_COLUMN,
                                "ORDER BY \"" + id.getSimple() + "\" is ambiguous");
                    }
                    matched = expr;
                }
                if (matched != null) continue;
            }
            if (!select.isDistinct() || star) continue;
            if (key instanceof SqlLiteral lit && lit.getTypeName().getFamily()
                    == SqlTypeFamily.NUMERIC) continue; // ordinal
            String wanted = normalized(key);
            boolean inList = items.stream().anyMatch(i -> normalized(expression(i)).equals(wanted));
            if (!inList) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE,
                        "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
            }
        }
    }

    /**
     * USING and NATURAL: each joined column must appear once on each side (42702, "common
     * column name "a" appears more than once in left table"); a column a previous USING
     * join merged counts once, as in PostgreSQL.
     *
     * @param leafColumns an input's column names, null when unknown
     */
    static void checkJoinColumns(SqlJoin join, Function<SqlNode, List<String>> leafColumns) {
        JoinConditionType type = join.getConditionType();
        if (type != JoinConditionType.USING && !join.isNatural()) return;
        // In PostgreSQL a comma binds looser than JOIN: in "a, b JOIN c USING (x)" the
        // left input is b alone, whatever shape the parse tree has.
        SqlNode leftInput = join.getLeft();
        while (leftInput instanceof SqlJoin comma && comma.getJoinType() == JoinType.COMMA) {
            leftInput = comma.getRight();
        }
        Map<String, Integer> left = columnCounts(leftInput, leafColumns);
        Map<String, Integer> right = columnCounts(join.getRight(), leafColumns);
        if (left == null || right == null) return;
        for (String name : joinedColumns(join, left, right)) {
            if (left.getOrDefault(name, 0) > 1) throw commonColumn(name, "left");
            if (right.getOrDefault(name, 0) > 1) throw commonColumn(name, "right");
        }
    }

    private static SqlException commonColumn(String name, String side) {
        return new SqlException(SqlState.AMBIGUOUS_COLUMN,
                "common column name \"" + name + "\" appears more than once in " + side + " table");
    }

    private static List<String> joinedColumns(SqlJoin join, Map<String, Integer> left, Map<String, Integer> right) {
        if (join.isNatural()) return left.keySet().stream().filter(right::containsKey).toList();
        if (join.getConditionType() != JoinConditionType.USING || !(join.getCondition() instanceof SqlNodeList l)) {
            return List.of();
        }
        return l.getList().stream().filter(n -> n instanceof SqlIdentifier)
                .map(n -> ((SqlIdentifier) n).getSimple()).toList();
    }

    /** How many columns of each name an input has, USING-merged columns once; null if unknown. */
    private static Map<String, Integer> columnCounts(SqlNode node, Function<SqlNode, List<String>> leafColumns) {
        if (node instanceof SqlJoin j) {
            Map<String, Integer> left = columnCounts(j.getLeft(), leafColumns);
            Map<String, Integer> right = columnCounts(j.getRight(), leafColumns);
            if (left == null || right == null) return null;
            List<String> merged = joinedColumns(j, left, right);
            Map<String, Integer> counts = new HashMap<>(left);
            right.forEach((name, n) -> counts.merge(name, n, Integer::sum));
            for (String name : merged) counts.put(name, 1);
            return counts;
        }
        List<String> names = leafColumns.apply(node);
        if (names == null) return null;
        Map<String, Integer> counts = new HashMap<>();
        for (String name : names) counts.merge(name, 1, Integer::sum);
        return counts;
    }

    /**
     * {@code ||}: PostgreSQL's operators are {@code text || anynonarray} and its mirror
     * (plus bytea and arrays), so an operand must be text, bytea, an array or untyped;
     * {@code 1 || 2} has no operator (42883).
     */
    static void checkConcat(SqlCall call, Function<SqlNode, RelDataType> typeOf) {
        if (!call.getOperator().getName().equals("||") || call.operandCount() != 2) return;
        RelDataType[] types = new RelDataType[2];
        for (int i = 0; i < 2; i++) {
            SqlNode op = call.operand(i);
            // untyped in PostgreSQL: a string literal, NULL, a parameter (numbers are typed)
            if (op instanceof SqlCharStringLiteral || SqlUtil.isNullLiteral(op, true)
                    || op instanceof SqlDynamicParam) return;
            types[i] = typeOf.apply(op);
            if (SqlTypeUtil.isCharacter(types[i]) || SqlTypeUtil.isBinary(types[i]) || SqlTypeUtil.isArray(types[i])
                    || SqlTypeUtil.isNull(types[i])) return;
        }
        throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: "
                + CalciteErrors.pgType(types[0].getSqlTypeName().getName()) + " || "
                + CalciteErrors.pgType(types[1].getSqlTypeName().getName()), null,
                "No operator matches the given name and argument types. You might need to add explicit type casts.");
    }

    /** An ORDER BY item without DESC / NULLS FIRST / NULLS LAST. */
    private static SqlNode sortKey(SqlNode o) {
        while (o instanceof SqlCall c && (o.getKind() == SqlKind.DESCENDING
                || o.getKind() == SqlKind.NULLS_FIRST || o.getKind() == SqlKind.NULLS_LAST)) {
            o = c.operand(0);
        }
        return o;
    }

    private static String outputName(SqlNode item) {
        if (item.getKind() == SqlKind.AS && item instanceof SqlCall c && c.operand(1) instanceof SqlIdentifier a) {
            return PgSqlRewriter.displayName(a.getSimple()); // the rewriter made duplicate aliases unique
        }
        if (item instanceof SqlIdentifier id && !id.isStar()) return id.names.get(id.names.size() - 1);
        return null;
    }

    private static SqlNode expression(SqlNode item) {
        return item.getKind() == SqlKind.AS && item instanceof SqlCall c ? c.operand(0) : item;
    }

    /**
     * An expression's text with identifiers reduced to their last name, so {@code t.a} and
     * {@code a} compare equal: lenient on purpose (never rejects what PostgreSQL accepts).
     */
    private static String normalized(SqlNode e) {
        SqlNode bare = e.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                return id.isStar() ? id : new SqlIdentifier(id.names.get(id.names.size() - 1), id.getParserPosition());
            }
        });
        return String.valueOf(bare);
    }
}
