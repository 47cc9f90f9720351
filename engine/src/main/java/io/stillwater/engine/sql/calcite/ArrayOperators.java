package io.stillwater.engine.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * PostgreSQL's array functions for the validator (Calcite's own array functions are
 * Spark's or BigQuery's, with other semantics, so these shadow them), and the infix
 * operators {@code @>}, {@code <@}, {@code &&} that {@link PgInfixOperators} spells as calls.
 * The engine's semantics are in {@code expr.ArrayFuncs}.
 */
final class ArrayOperators {
    private ArrayOperators() {}

    static List<SqlOperator> functions() {
        SqlTypeFamily arr = SqlTypeFamily.ARRAY, num = SqlTypeFamily.NUMERIC, any = SqlTypeFamily.ANY;
        SqlTypeFamily str = SqlTypeFamily.CHARACTER;
        SqlReturnTypeInference integer = nullable(SqlTypeName.INTEGER);
        SqlReturnTypeInference text = nullable(SqlTypeName.VARCHAR);
        return List.of(
                fn("ARRAY_LENGTH", integer, OperandTypes.family(arr, num)),
                fn("ARRAY_LOWER", integer, OperandTypes.family(arr, num)),
                fn("ARRAY_UPPER", integer, OperandTypes.family(arr, num)),
                fn("ARRAY_NDIMS", integer, OperandTypes.family(arr)),
                fn("ARRAY_DIMS", text, OperandTypes.family(arr)),
                fn("CARDINALITY", integer, OperandTypes.family(arr)),
                fn("ARRAY_TO_STRING", text, OperandTypes.or(OperandTypes.family(arr, str),
                        OperandTypes.family(arr, str, str))),
                fn("STRING_TO_ARRAY", ArrayOperators::textArray, OperandTypes.or(OperandTypes.family(str, str),
                        OperandTypes.family(str, str, str))),
                fn("ARRAY_POSITION", integer, OperandTypes.or(OperandTypes.family(arr, any),
                        OperandTypes.family(arr, any, num))),
                fn("ARRAY_POSITIONS", ArrayOperators::integerArray, OperandTypes.family(arr, any)),
                fn("ARRAY_APPEND", ReturnTypes.ARG0, OperandTypes.family(arr, any)),
                fn("ARRAY_PREPEND", ReturnTypes.ARG1, OperandTypes.family(any, arr)),
                fn("ARRAY_CAT", ArrayOperators::eitherArray, OperandTypes.family(any, any)),
                fn("ARRAY_REMOVE", ReturnTypes.ARG0, OperandTypes.family(arr, any)),
                fn("ARRAY_REPLACE", ReturnTypes.ARG0, OperandTypes.family(arr, any, any)),
                ArraySyntax.PG_ANY, ArraySyntax.PG_ALL, ArraySyntax.CONCAT, ArraySyntax.PG_SUBSCRIPT,
                fn("PG_CONTAINS", BOOL, OperandTypes.family(any, any)),
                fn("PG_CONTAINED", BOOL, OperandTypes.family(any, any)),
                fn("PG_OVERLAP", BOOL, OperandTypes.family(any, any)));
    }

    private static final SqlReturnTypeInference BOOL = nullable(SqlTypeName.BOOLEAN);

    private static SqlReturnTypeInference nullable(SqlTypeName t) {
        return ReturnTypes.explicit(t).andThen(SqlTypeTransforms.TO_NULLABLE);
    }

    private static RelDataType textArray(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createArrayType(
                f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true), -1), true);
    }

    private static RelDataType integerArray(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createArrayType(
                f.createTypeWithNullability(f.createSqlType(SqlTypeName.INTEGER), true), -1), true);
    }

    /** array_cat's type: the array argument's (the first if both are arrays). */
    private static RelDataType eitherArray(SqlOperatorBinding b) {
        RelDataType t = b.getOperandType(0).getSqlTypeName() == SqlTypeName.ARRAY ? b.getOperandType(0) : b.getOperandType(1);
        return b.getTypeFactory().createTypeWithNullability(t, true);
    }

    /** Unknown-typed arguments (parameters) are text. */
    private static final SqlOperandTypeInference UNKNOWN_AS_TEXT =
            (SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) -> {
                RelDataTypeFactory f = binding.getTypeFactory();
                for (int i = 0; i < operandTypes.length; i++) {
                    operandTypes[i] = f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true);
                }
            };

    static SqlFunction fn(String name, SqlReturnTypeInference ret, SqlOperandTypeChecker check) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ret, UNKNOWN_AS_TEXT, check,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }
}
