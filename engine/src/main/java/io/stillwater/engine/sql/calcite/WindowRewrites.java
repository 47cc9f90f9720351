package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import java.util.List;
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

    /**
     * Calcite has no {@code GROUPS} frames. {@link PgTokens} spells a GROUPS frame without
     * offsets as RANGE (the same frame: UNBOUNDED and CURRENT ROW mean peer groups in both)
     * and one with offsets as ROWS with every offset raised by this bias, which
     * {@link WindowToPlan} recognises and takes off again. A ROWS offset this large (2^50
     * rows) cannot be meant as one.
     */
    static final long GROUPS_OFFSET_BIAS = 1L << 50;

    /**
     * The token edits that respell the GROUPS frame whose {@code GROUPS} keyword is token
     * {@code at}: token index to replacement text. Offsets must be integer literals.
     */
    static java.util.Map<Integer, String> groupsFrame(List<Token> tokens, int at) {
        java.util.Map<Integer, String> edits = new java.util.HashMap<>();
        boolean offsets = false;
        int depth = 0;
        for (int j = at + 1; j < tokens.size(); j++) {
            Token t = tokens.get(j);
            if (t.isSymbol("(")) depth++;
            if (t.isSymbol(")") && depth-- == 0) break;
            if (depth == 0 && t.isWord("exclude")) break;
            Token next = j + 1 < tokens.size() ? tokens.get(j + 1) : null;
            if (next != null && (next.isWord("preceding") || next.isWord("following")) && !t.isWord("unbounded")) {
                if (t.kind() != TokenKind.INTEGER) {
                    throw RexToExpr.unsupported("GROUPS frame offsets that are not integer constants");
                }
                edits.put(j, new java.math.BigInteger(t.text()).add(java.math.BigInteger.valueOf(GROUPS_OFFSET_BIAS)).toString());
                offsets = true;
            }
        }
        edits.put(at, offsets ? "ROWS" : "RANGE");
        return edits;
    }

    /** Does the token at {@code i} start a GROUPS frame ({@code GROUPS BETWEEN | UNBOUNDED | CURRENT | n})? */
    static boolean startsGroupsFrame(Token t, Token next) {
        return t.isWord("groups") && next != null && (next.isWord("between") || next.isWord("unbounded")
                || next.isWord("current") || next.kind() == TokenKind.INTEGER);
    }
}
