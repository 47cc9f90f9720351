package io.stillwater.engine.sql.calcite;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A scalar subquery with a FROM clause in a branch of CASE whose value is computed from
 * the outer row only, like {@code CASE WHEN t.y > 0 THEN (SELECT 10 / t.y FROM u LIMIT 1)
 * ELSE 0 END}: PostgreSQL evaluates {@code 10 / t.y} only for rows that take the branch.
 * Decorrelation computes a subquery's select list beside every outer row, so the division
 * failed for rows the CASE never sends there. When the item names no column of the
 * subquery's own FROM, its value does not depend on which row the subquery finds, only on
 * whether it finds one, so the item moves out of the subquery:
 * <pre>
 *   (SELECT e FROM f WHERE w LIMIT 1)   ==>  CASE WHEN EXISTS (SELECT 1 FROM f WHERE w) THEN e END
 *   (SELECT e FROM f WHERE w)           ==>  CASE WHEN (SELECT true FROM f WHERE w) THEN e END
 * </pre>
 * (the second keeps the subquery's at-most-one-row check, 21000). Only subqueries without
 * grouping, aggregates, DISTINCT or OFFSET whose item uses qualified outer columns are
 * rewritten; everything else is left as it was. Mutates the parsed statement in place.
 */
final class GuardedScalarSubqueries {
    private GuardedScalarSubqueries() {}

    static void apply(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlCase c) {
                    rewriteAll(c.getThenOperands());
                    if (c.getElseOperand() != null) {
                        SqlNode r = rewrite(c.getElseOperand());
                        if (r != null) c.setOperand(3, r);
                    }
                }
                return super.visit(call);
            }
        });
    }

    private static void rewriteAll(SqlNodeList results) {
        for (int i = 0; i < results.size(); i++) {
            SqlNode r = rewrite(results.get(i));
            if (r != null) results.set(i, r);
        }
    }

    /** The rewritten form of a CASE result that is such a subquery, or null. */
    private static SqlNode rewrite(SqlNode result) {
        boolean limitOne = false;
        SqlNode q = result;
        if (q instanceof SqlOrderBy o) {
            if (o.offset != null || o.fetch == null || !isOne(o.fetch)) return null;
            limitOne = true;
            q = o.query;
        }
        if (!(q instanceof SqlSelect s) || s.getFrom() == null || s.getSelectList().size() != 1
                || s.getGroup() != null || s.getHaving() != null || s.isDistinct() || s.getOffset() != null
                || s.getWindowList() != null && !s.getWindowList().isEmpty()) {
            return null;
        }
        if (s.getFetch() != null) {
            if (!isOne(s.getFetch())) return null;
            limitOne = true;
        }
        SqlNode item = s.getSelectList().get(0);
        if (item.getKind() == SqlKind.AS) item = ((SqlCall) item).operand(0);
        if (!outerOnly(item, aliases(s.getFrom()))) return null;
        SqlParserPos pos = result.getParserPosition();
        SqlNode test;
        if (limitOne) {
            SqlSelect probe = new SqlSelect(pos, null, SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos)),
                    s.getFrom(), s.getWhere(), null, null, null, null, null, null, null, null);
            test = SqlStdOperatorTable.EXISTS.createCall(pos, List.<SqlNode>of(probe));
        } else {
            test = new SqlSelect(pos, null, SqlNodeList.of(SqlLiteral.createBoolean(true, pos)),
                    s.getFrom(), s.getWhere(), null, null, null, null, null, null, null, null);
        }
        return new SqlCase(pos, null, SqlNodeList.of(test), SqlNodeList.of(item), SqlLiteral.createNull(pos));
    }

    private static boolean isOne(SqlNode n) {
        return n instanceof SqlLiteral l && "1".equals(l.toValue());
    }

    /** Whether {@code e} has column references and all are qualified by names not in {@code local}, and no subquery. */
    private static boolean outerOnly(SqlNode e, Set<String> local) {
        boolean[] ok = {true};
        boolean[] any = {false};
        e.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                any[0] = true;
                if (id.names.size() < 2 || local.contains(id.names.get(id.names.size() - 2))) ok[0] = false;
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call.isA(SqlKind.QUERY) || call.getOperator().isAggregator() || call.getKind() == SqlKind.OVER) {
                    ok[0] = false;
                    return null;
                }
                return super.visit(call);
            }
        });
        return ok[0] && any[0];
    }

    private static Set<String> aliases(SqlNode from) {
        Set<String> out = new HashSet<>();
        collect(from, out);
        return out;
    }

    private static void collect(SqlNode from, Set<String> out) {
        switch (from) {
            case SqlJoin j -> {
                collect(j.getLeft(), out);
                collect(j.getRight(), out);
            }
            case SqlIdentifier id -> out.add(id.names.get(id.names.size() - 1));
            case SqlCall c when c.getKind() == SqlKind.AS -> {
                if (c.operand(1) instanceof SqlIdentifier alias) out.add(alias.getSimple());
                if (c.operand(0) instanceof SqlIdentifier table) out.add(table.names.get(table.names.size() - 1));
            }
            default -> { }
        }
    }
}
