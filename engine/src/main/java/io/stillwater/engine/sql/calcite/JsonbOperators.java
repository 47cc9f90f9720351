package io.stillwater.engine.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.util.Optionality;

/**
 * PostgreSQL's jsonb functions, aggregates and (through {@link PgInfixOperators}) operators
 * for the validator. jsonb is Calcite's VARIANT type (see {@link TypeMapping}); arguments
 * are checked loosely here and typed by {@link JsonbCalls} (an untyped string literal where
 * a jsonb is expected is read as jsonb, as in PostgreSQL). The semantics are in
 * {@code expr.JsonbFuncs}.
 */
final class JsonbOperators {
    private JsonbOperators() {}

    static List<SqlOperator> functions() {
        SqlReturnTypeInference jsonb = nullable(SqlTypeName.VARIANT);
        SqlReturnTypeInference text = nullable(SqlTypeName.VARCHAR);
        SqlReturnTypeInference bool = nullable(SqlTypeName.BOOLEAN);
        SqlTypeFamily any = SqlTypeFamily.ANY;
        return List.of(
                ArrayOperators.fn("PG_JSON_GET", jsonb, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_GET_TEXT", text, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_PATH", jsonb, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_PATH_TEXT", text, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_DELETE_PATH", jsonb, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_EXISTS", bool, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_EXISTS_ANY", bool, OperandTypes.family(any, any)),
                ArrayOperators.fn("PG_JSON_EXISTS_ALL", bool, OperandTypes.family(any, any)),
                ArrayOperators.fn("JSONB_BUILD_OBJECT", ReturnTypes.explicit(SqlTypeName.VARIANT), OperandTypes.VARIADIC),
                ArrayOperators.fn("JSONB_BUILD_ARRAY", ReturnTypes.explicit(SqlTypeName.VARIANT), OperandTypes.VARIADIC),
                ArrayOperators.fn("TO_JSONB", jsonb, OperandTypes.family(any)),
                ArrayOperators.fn("JSONB_TYPEOF", text, OperandTypes.family(any)),
                ArrayOperators.fn("JSONB_ARRAY_LENGTH", nullable(SqlTypeName.INTEGER), OperandTypes.family(any)),
                ArrayOperators.fn("JSONB_EXTRACT_PATH", jsonb, OperandTypes.VARIADIC),
                ArrayOperators.fn("JSONB_EXTRACT_PATH_TEXT", text, OperandTypes.VARIADIC),
                ArrayOperators.fn("JSONB_SET", jsonb, OperandTypes.or(OperandTypes.family(any, any, any),
                        OperandTypes.family(any, any, any, SqlTypeFamily.BOOLEAN))),
                ArrayOperators.fn("JSONB_STRIP_NULLS", jsonb, OperandTypes.family(any)),
                ArrayOperators.fn("JSONB_PRETTY", text, OperandTypes.family(any)),
                aggregate("JSONB_AGG", OperandTypes.family(any)),
                aggregate("JSONB_OBJECT_AGG", OperandTypes.family(any, any)));
    }

    private static SqlReturnTypeInference nullable(SqlTypeName t) {
        return ReturnTypes.explicit(t).andThen(SqlTypeTransforms.TO_NULLABLE);
    }

    private static RelDataType nullableVariant(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARIANT), true);
    }

    /** jsonb_agg / jsonb_object_agg: NULL over no rows; ORDER BY inside the call orders the result. */
    private static SqlAggFunction aggregate(String name, SqlOperandTypeChecker check) {
        return new SqlAggFunction(name, null, SqlKind.OTHER_FUNCTION, JsonbOperators::nullableVariant, null, check,
                SqlFunctionCategory.USER_DEFINED_FUNCTION, false, false, Optionality.OPTIONAL) {
        };
    }
}
