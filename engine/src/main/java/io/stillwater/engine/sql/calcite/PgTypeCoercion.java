package io.stillwater.engine.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercion narrowed to PostgreSQL's rule for strings: only untyped
 * values (string literals, NULL, parameters) convert implicitly between character and
 * non-character types. A text column compared with an integer is an error
 * ({@code operator does not exist: text = integer}), and {@code length(42)} has no
 * matching function, as in PostgreSQL. {@code ||} and {@code concat} take any type
 * ({@link PgQueryRules#checkConcat} rejects {@code ||} without a text operand); a timestamp never
 * becomes a date implicitly.
 */
final class PgTypeCoercion extends TypeCoercionImpl {
    PgTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    protected boolean coerceOperandType(SqlValidatorScope scope, SqlCall call, int index, RelDataType targetType) {
        // Before Calcite casts a || operand to text: PostgreSQL needs a text operand already.
        PgQueryRules.checkConcat(call, op -> validator.deriveType(scope, op));
        SqlNode operand = call.operand(index);
        RelDataType from = validator.deriveType(scope, operand);
        boolean fromChar = SqlTypeUtil.isCharacter(from);
        boolean toChar = SqlTypeUtil.isCharacter(targetType);
        if (fromChar != toChar && !isUntyped(operand) && from.getSqlTypeName() != SqlTypeName.NULL
                && !anyTypeAllowed(call)) {
            return false;
        }
        if (isTimestamp(from) && targetType.getSqlTypeName() == SqlTypeName.DATE && !isUntyped(operand)) {
            // PostgreSQL casts timestamp to date only explicitly: now() + 1 has no operator.
            return false;
        }
        return super.coerceOperandType(scope, call, index, targetType);
    }

    /**
     * Calcite has no comparison between binary (or array) and character values; in PostgreSQL a
     * string literal compared with a bytea is read as a bytea ({@code b = '\\xcafe'}), and
     * one compared with an array as an array ({@code xs = '{1,2}'}).
     */
    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        if (binding.getOperandCount() == 2) {
            for (int i = 0; i < 2; i++) {
                SqlNode lit = binding.operand(i);
                RelDataType other = binding.getOperandType(1 - i);
                if (lit instanceof SqlLiteral && SqlTypeUtil.isCharacter(binding.getOperandType(i))
                        && (SqlTypeUtil.isBinary(other) || SqlTypeUtil.isArray(other))) {
                    return coerceOperandType(binding.getScope(), binding.getCall(), i, other);
                }
            }
        }
        return super.binaryComparisonCoercion(binding);
    }

    private static boolean isTimestamp(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.TIMESTAMP
                || t.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static boolean anyTypeAllowed(SqlCall call) {
        String name = call.getOperator().getName();
        return name.equals("||") || name.equalsIgnoreCase("CONCAT") || name.equalsIgnoreCase("CONCAT_WS");
    }

    /** PostgreSQL's "unknown" values: literals, NULL, parameters (possibly under a cast). */
    private static boolean isUntyped(SqlNode node) {
        if (node instanceof SqlLiteral || node instanceof SqlDynamicParam) return true;
        if (node.getKind() == SqlKind.CAST && node instanceof SqlCall c) return c.operand(0) instanceof SqlDynamicParam;
        return false;
    }
}
