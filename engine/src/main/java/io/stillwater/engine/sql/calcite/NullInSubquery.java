package io.stillwater.engine.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code NULL [NOT] IN (subquery)} spelled so that Calcite plans it right. With a NULL
 * left operand the answer depends only on whether the subquery has rows: {@code IN} is
 * false over no rows and NULL otherwise ({@code NOT IN}: true, NULL). Calcite's subquery
 * removal folded it to NULL for every row (and a correlated subquery failed to plan), so
 * {@code NULL NOT IN (empty)} dropped rows PostgreSQL keeps. Rewritten before validation:
 * <pre>
 *   NULL IN (q)  ==>  CASE WHEN EXISTS (q) THEN NULL::boolean ELSE false END
 *   NULL NOT IN (q)  ==>  CASE WHEN EXISTS (q) THEN NULL::boolean ELSE true END
 * </pre>
 */
final class NullInSubquery {
    private NullInSubquery() {}

    /** Rewrites in place where it can and returns the (possibly replaced) root. */
    static SqlNode apply(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                SqlNode item = list.get(i);
                if (item == null) continue;
                SqlNode fixed = apply(item);
                if (fixed != item) list.set(i, fixed);
            }
            return list;
        }
        if (!(node instanceof SqlCall c)) return node;
        List<SqlNode> operands = c.getOperandList();
        for (int i = 0; i < operands.size(); i++) {
            SqlNode op = operands.get(i);
            if (op == null) continue;
            SqlNode fixed = apply(op);
            if (fixed != op) c.setOperand(i, fixed);
        }
        if ((c.getKind() != SqlKind.IN && c.getKind() != SqlKind.NOT_IN) || c.operandCount() != 2
                || !isNull(c.operand(0)) || !c.operand(1).isA(SqlKind.QUERY)) {
            return c;
        }
        SqlParserPos pos = c.getParserPosition();
        SqlNode query = c.operand(1);
        SqlNode exists = SqlStdOperatorTable.EXISTS.createCall(pos, query);
        SqlNode unknown = SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createNull(pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN, pos), pos));
        SqlNode empty = SqlLiteral.createBoolean(c.getKind() == SqlKind.NOT_IN, pos);
        return new SqlCase(pos, null, new SqlNodeList(List.of(exists), pos), new SqlNodeList(List.of(unknown), pos), empty);
    }

    private static boolean isNull(SqlNode n) {
        if (n instanceof SqlLiteral l) return l.getTypeName() == SqlTypeName.NULL;
        return n instanceof SqlCall c && c.getKind() == SqlKind.CAST && isNull(c.operand(0));
    }
}
