package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * Array syntax Calcite reads differently from PostgreSQL, fixed on the parse tree by
 * {@link PgSqlRewriter}:
 * <ul>
 *   <li>{@code x = ANY ($1)} and {@code x = ANY ('{1,2}')}: Calcite takes a non-array,
 *       non-subquery operand of ANY/ALL as a plain comparison; PostgreSQL reads it as an
 *       array of x's type. These become {@code PG_ANY('=', x, arr)} / {@code PG_ALL}.
 *   <li>{@code ||} with an array operand (append, prepend, concatenation): Calcite's
 *       {@code ||} takes strings only; {@link #CONCAT} also takes arrays.
 * </ul>
 */
final class ArraySyntax {
    private ArraySyntax() {}

    /** The replacement of {@code call}, or {@code call} itself. */
    static SqlNode rewrite(SqlCall call) {
        if (call instanceof SqlBasicCall basic && call.getOperator() != CONCAT && call.getOperator().getName().equals("||")
                && call.getOperator() instanceof SqlBinaryOperator) {
            basic.setOperator(CONCAT);
            return call;
        }
        if (call.getKind() == SqlKind.ITEM && call.operand(0).getKind() == SqlKind.ITEM) {
            // a[i][j]: one subscript per dimension (the engine types every array as one-dimensional).
            List<SqlNode> indexes = new ArrayList<>();
            SqlNode base = call;
            while (base.getKind() == SqlKind.ITEM) {
                indexes.add(0, ((SqlCall) base).operand(1));
                base = ((SqlCall) base).operand(0);
            }
            indexes.add(0, base);
            return PG_SUBSCRIPT.createCall(call.getParserPosition(), indexes);
        }
        if (call.getOperator() instanceof SqlQuantifyOperator q && call.operandCount() == 2
                && isUntypedArray(single(call.operand(1)))) {
            String symbol = SqlStdOperatorTable.SOME_EQ.getName().equals(q.getName()) ? "=" : q.getName().split(" ")[0];
            SqlFunction f = q.getKind() == SqlKind.ALL ? PG_ALL : PG_ANY;
            return f.createCall(call.getParserPosition(),
                    SqlLiteral.createCharString(symbol, call.getParserPosition()), call.operand(0), single(call.operand(1)));
        }
        return call;
    }

    /** ANY's operand as parsed: {@code ANY ($1)} is a one-element list. */
    private static SqlNode single(SqlNode n) {
        return n instanceof SqlNodeList l && l.size() == 1 ? l.get(0) : n;
    }

    private static boolean isUntypedArray(SqlNode n) {
        return n instanceof SqlDynamicParam || PgSqlRewriter.paramIndex(n) >= 0
                || (n instanceof SqlLiteral l && l.getTypeName() == SqlTypeName.CHAR);
    }

    /** {@code PG_SUBSCRIPT(array, i, j, ...)}: the element at one index per dimension. */
    static final SqlFunction PG_SUBSCRIPT = new SqlFunction("PG_SUBSCRIPT", SqlKind.OTHER_FUNCTION,
            b -> b.getTypeFactory().createTypeWithNullability(
                    b.getOperandType(0).getComponentType() == null ? b.getOperandType(0) : b.getOperandType(0).getComponentType(),
                    true),
            null, OperandTypes.VARIADIC, SqlFunctionCategory.USER_DEFINED_FUNCTION);

    static final SqlFunction PG_ANY = quantified("PG_ANY");
    static final SqlFunction PG_ALL = quantified("PG_ALL");

    /** (comparison symbol, value, array): a parameter array is typed as an array of the value's type. */
    private static SqlFunction quantified(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE),
                (SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) -> {
                    RelDataTypeFactory f = binding.getTypeFactory();
                    RelDataType value = binding.getValidator().deriveType(binding.getScope(), binding.operand(1));
                    if (value.getSqlTypeName() == SqlTypeName.NULL || value.getSqlTypeName() == SqlTypeName.UNKNOWN) {
                        value = f.createSqlType(SqlTypeName.VARCHAR);
                    }
                    operandTypes[0] = f.createSqlType(SqlTypeName.VARCHAR);
                    operandTypes[1] = f.createTypeWithNullability(value, true);
                    operandTypes[2] = f.createTypeWithNullability(f.createArrayType(
                            f.createTypeWithNullability(value, true), -1), true);
                },
                OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ANY, SqlTypeFamily.ANY),
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }

    /** PostgreSQL's {@code ||}: Calcite's for strings, plus array || array, array || element, element || array. */
    static final SqlOperator CONCAT = new SqlBinaryOperator("||", SqlKind.OTHER, 60, true,
            ArraySyntax::concatType, null, new ConcatOperands()) {
    };

    private static RelDataType concatType(SqlOperatorBinding b) {
        RelDataType l = b.getOperandType(0), r = b.getOperandType(1);
        if (isJsonb(l) || isJsonb(r)) {
            return b.getTypeFactory().createTypeWithNullability(isJsonb(l) ? l : r, true);
        }
        if (!isArray(l) && !isArray(r)) return ReturnTypes.DYADIC_STRING_SUM_PRECISION_NULLABLE.inferReturnType(b);
        RelDataType t = isArray(l) ? l : r;
        return b.getTypeFactory().createTypeWithNullability(t, true);
    }

    private static boolean isArray(RelDataType t) { return t.getSqlTypeName() == SqlTypeName.ARRAY; }

    static boolean isJsonb(RelDataType t) { return t.getSqlTypeName() == SqlTypeName.VARIANT; }

    private static final class ConcatOperands implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            if (isArray(binding.getOperandType(0)) || isArray(binding.getOperandType(1))) return true;
            if (isJsonb(binding.getOperandType(0)) || isJsonb(binding.getOperandType(1))) return true;
            SqlOperandTypeChecker std = SqlStdOperatorTable.CONCAT.getOperandTypeChecker();
            return std.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() { return SqlOperandCountRanges.of(2); }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return SqlStdOperatorTable.CONCAT.getOperandTypeChecker().getAllowedSignatures(op, opName);
        }
    }
}
