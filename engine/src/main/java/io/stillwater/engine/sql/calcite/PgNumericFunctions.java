package io.stillwater.engine.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Numeric functions and operators with PostgreSQL's result types, where Calcite's differ:
 * <ul>
 *   <li>{@code sqrt, exp, ln, log10, log, ceil, floor, round, trunc, sign} of a numeric are
 *       numeric (computed by the engine's numeric math with PostgreSQL's scales); of an
 *       integer or float they are double precision ({@code round(2)} is float8 2).
 *       {@code round(x, n)} and {@code trunc(x, n)} are numeric ({@code round(2, 2)} is 2.00);
 *       {@code power(a, b)} is numeric when an argument is numeric and neither is a float.
 *   <li>{@code * / + -} mixing {@code real} with an integer or numeric are double precision
 *       ({@code 1 / 3::real} is 0.3333333333333333): PostgreSQL resolves them to float8
 *       operators, Calcite keeps real ({@link #promoteReal}).
 *   <li>{@code GREATEST}/{@code LEAST} return the first of equal values ({@link #GREATEST}).
 *   <li>{@code NULLIF(a, b)} has the type of the comparison's left operand:
 *       {@code NULLIF(1, 2.0)} is numeric, as PostgreSQL documents.
 *   <li>{@code ceil} and {@code floor} are swapped in by {@link PgSqlRewriter}: the parser
 *       binds them to Calcite's operators, whose type derivation does not look them up again.
 * </ul>
 * The others shadow Calcite's of the same names in {@link PgOperatorTable}.
 */
final class PgNumericFunctions {
    private PgNumericFunctions() {}

    /** Numeric of a numeric argument, else double precision. */
    private static final SqlReturnTypeInference NUMERIC_OR_DOUBLE = b -> {
        RelDataType arg = b.getOperandType(0);
        return nullableLike(b, isDecimal(arg) ? PgTypeSystem.unconstrainedNumeric(b.getTypeFactory()) : dbl(b));
    };

    /** round/trunc: with places always numeric; without, like {@link #NUMERIC_OR_DOUBLE}. */
    private static final SqlReturnTypeInference ROUNDING = b -> b.getOperandCount() == 2
            ? nullableLike(b, PgTypeSystem.unconstrainedNumeric(b.getTypeFactory()))
            : NUMERIC_OR_DOUBLE.inferReturnType(b);

    /** power(a, b): numeric when an argument is numeric and none is a float, else double precision. */
    private static final SqlReturnTypeInference POWER_TYPE = b -> numericUnlessFloat(b, false);

    /** log(b, x): PostgreSQL has only log(numeric, numeric); a float argument gives double precision here. */
    private static final SqlReturnTypeInference LOG_TYPE = b -> b.getOperandCount() == 1
            ? NUMERIC_OR_DOUBLE.inferReturnType(b) : numericUnlessFloat(b, true);

    private static RelDataType numericUnlessFloat(SqlOperatorBinding b, boolean integersToo) {
        boolean numeric = integersToo;
        for (RelDataType t : b.collectOperandTypes()) {
            if (SqlTypeUtil.isApproximateNumeric(t)) return nullableLike(b, dbl(b));
            numeric |= isDecimal(t);
        }
        return nullableLike(b, numeric ? PgTypeSystem.unconstrainedNumeric(b.getTypeFactory()) : dbl(b));
    }

    /** Parameters of unknown type are double precision (PostgreSQL's preferred numeric type). */
    private static final SqlOperandTypeInference DOUBLE_PARAMS = (binding, returnType, operandTypes) -> {
        RelDataTypeFactory f = binding.getTypeFactory();
        for (int i = 0; i < operandTypes.length; i++) {
            operandTypes[i] = f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), true);
        }
    };

    /** round($1, 2): the value is numeric, the places an integer. */
    private static final SqlOperandTypeInference ROUNDING_PARAMS = (binding, returnType, operandTypes) -> {
        RelDataTypeFactory f = binding.getTypeFactory();
        for (int i = 0; i < operandTypes.length; i++) {
            RelDataType t = i == 0 && operandTypes.length == 2 ? PgTypeSystem.unconstrainedNumeric(f)
                    : f.createSqlType(i == 0 ? SqlTypeName.DOUBLE : SqlTypeName.INTEGER);
            operandTypes[i] = f.createTypeWithNullability(t, true);
        }
    };

    /**
     * The functions and operators, shadowing Calcite's of the same names: the validator looks
     * every call's operator up by name again, so being in the operator table is what counts.
     */
    static List<SqlOperator> operators() {
        return List.of(TIMES, DIVIDE, NULLIF, GREATEST, LEAST, CEIL, FLOOR,
                fn("SQRT", NUMERIC_OR_DOUBLE, DOUBLE_PARAMS, 1),
                fn("EXP", NUMERIC_OR_DOUBLE, DOUBLE_PARAMS, 1),
                fn("LN", NUMERIC_OR_DOUBLE, DOUBLE_PARAMS, 1),
                fn("LOG10", NUMERIC_OR_DOUBLE, DOUBLE_PARAMS, 1),
                fn("SIGN", NUMERIC_OR_DOUBLE, DOUBLE_PARAMS, 1),
                new SqlFunction("LOG", SqlKind.OTHER_FUNCTION, LOG_TYPE, DOUBLE_PARAMS, OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_NUMERIC),
                        SqlFunctionCategory.NUMERIC),
                fn("POWER", POWER_TYPE, DOUBLE_PARAMS, 2),
                fn("POW", POWER_TYPE, DOUBLE_PARAMS, 2),
                rounding("ROUND"),
                rounding("TRUNC"));
    }

    /** ceil(x) and floor(x) (PostgreSQL has no {@code ceil(x TO unit)}). */
    static final SqlOperator CEIL = new SqlFunction("CEIL", SqlKind.CEIL, NUMERIC_OR_DOUBLE, DOUBLE_PARAMS,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
    static final SqlOperator FLOOR = new SqlFunction("FLOOR", SqlKind.FLOOR, NUMERIC_OR_DOUBLE, DOUBLE_PARAMS,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);

    /** {@code *}: Calcite's, with real promoted as PostgreSQL does. */
    static final SqlOperator TIMES = new SqlMonotonicBinaryOperator("*", SqlKind.TIMES, 60, true,
            b -> promoteReal(b, ReturnTypes.PRODUCT_NULLABLE.inferReturnType(b)), InferTypes.FIRST_KNOWN,
            OperandTypes.MULTIPLY_OPERATOR);

    /** {@code /}: Calcite's, with real promoted as PostgreSQL does. */
    static final SqlOperator DIVIDE = new SqlBinaryOperator("/", SqlKind.DIVIDE, 60, true,
            b -> promoteReal(b, ReturnTypes.QUOTIENT_NULLABLE.inferReturnType(b)), InferTypes.FIRST_KNOWN,
            OperandTypes.DIVISION_OPERATOR);

    /**
     * NULLIF(a, b), typed as the left operand of the {@code a = b} PostgreSQL resolves: their
     * common type (a's own when there is none), except that a non-real a against a real b is
     * double precision.
     */
    static final SqlOperator NULLIF = new SqlFunction("NULLIF", SqlKind.NULLIF, b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType first = b.getOperandType(0);
        RelDataType common = f.leastRestrictive(b.collectOperandTypes());
        if (common == null) common = first;
        if (common.getSqlTypeName() == SqlTypeName.REAL && first.getSqlTypeName() != SqlTypeName.REAL) {
            common = dbl(b); // integer = real resolves to float8 = float4, real = integer to float4 = float8
        }
        return f.createTypeWithNullability(common, true);
    }, InferTypes.FIRST_KNOWN, SqlStdOperatorTable.NULLIF.getOperandTypeChecker(), SqlFunctionCategory.SYSTEM);

    /**
     * GREATEST and LEAST over the arguments' common type, evaluated by the engine, which
     * ignores NULLs and returns the first of equal values as PostgreSQL does
     * ({@code GREATEST(2.00, 2)} is 2.00). Calcite's own are expanded into a CASE of strict
     * comparisons, which returns the last of equal values.
     */
    static final SqlOperator GREATEST = new SqlFunction("GREATEST", SqlKind.GREATEST, ReturnTypes.LEAST_RESTRICTIVE,
            InferTypes.FIRST_KNOWN, OperandTypes.SAME_VARIADIC, SqlFunctionCategory.SYSTEM);
    static final SqlOperator LEAST = new SqlFunction("LEAST", SqlKind.LEAST, ReturnTypes.LEAST_RESTRICTIVE,
            InferTypes.FIRST_KNOWN, OperandTypes.SAME_VARIADIC, SqlFunctionCategory.SYSTEM);

    /**
     * PostgreSQL has {@code float4 op float4} but resolves {@code integer op real} and
     * {@code numeric op real} to the float8 operators: the result is double precision
     * whenever real meets another numeric type. Calcite's arithmetic would stay real.
     */
    static RelDataType promoteReal(SqlOperatorBinding b, RelDataType type) {
        if (type == null || type.getSqlTypeName() != SqlTypeName.REAL) return type;
        for (RelDataType t : b.collectOperandTypes()) {
            if (SqlTypeUtil.isNumeric(t) && t.getSqlTypeName() != SqlTypeName.REAL) {
                return b.getTypeFactory().createTypeWithNullability(dbl(b), type.isNullable());
            }
        }
        return type;
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference ret, SqlOperandTypeInference infer, int args) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ret, infer,
                args == 1 ? OperandTypes.NUMERIC : OperandTypes.NUMERIC_NUMERIC, SqlFunctionCategory.NUMERIC);
    }

    private static SqlFunction rounding(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ROUNDING, ROUNDING_PARAMS,
                OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_INTEGER), SqlFunctionCategory.NUMERIC);
    }

    private static boolean isDecimal(RelDataType t) { return t.getSqlTypeName() == SqlTypeName.DECIMAL; }

    private static RelDataType dbl(SqlOperatorBinding b) { return b.getTypeFactory().createSqlType(SqlTypeName.DOUBLE); }

    /** {@code t}, nullable when any operand is. */
    private static RelDataType nullableLike(SqlOperatorBinding b, RelDataType t) {
        boolean nullable = false;
        for (RelDataType o : b.collectOperandTypes()) nullable |= o.isNullable();
        return b.getTypeFactory().createTypeWithNullability(t, nullable);
    }
}
