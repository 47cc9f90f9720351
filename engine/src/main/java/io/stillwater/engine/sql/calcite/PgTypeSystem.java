package io.stillwater.engine.sql.calcite;

import java.math.RoundingMode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system tuned to PostgreSQL's result types: {@code sum(int)} is bigint,
 * {@code sum(bigint)} and {@code avg(integer)} are numeric, {@code avg(float)} is double,
 * and NUMERIC has PostgreSQL's 1000-digit precision.
 *
 * <p>Unconstrained {@code numeric} has no counterpart in Calcite (DECIMAL always has a
 * precision and scale): it is represented as {@code DECIMAL(MAX_NUMERIC, UNCONSTRAINED_SCALE)},
 * and {@link TypeMapping} reports any DECIMAL of the maximum precision as plain {@code numeric}.
 * Computed numeric results are reported without modifiers, as PostgreSQL does.
 */
public final class PgTypeSystem extends RelDataTypeSystemImpl {
    public static final PgTypeSystem INSTANCE = new PgTypeSystem();
    public static final int MAX_NUMERIC = 1000;
    /** Scale used for unconstrained numeric: generous, so Calcite's own folding never rounds visibly. */
    public static final int UNCONSTRAINED_SCALE = 500;

    private PgTypeSystem() {}

    /**
     * PostgreSQL rounds half away from zero when a numeric loses digits ({@code 2.5::int} is 3,
     * {@code 2.5::numeric(5,0)} is 3). Calcite folds casts of literals at plan time with this
     * mode, so it must agree with the runtime cast (Numbers.convert); Calcite's default truncates.
     */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) return MAX_NUMERIC;
        return super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) return MAX_NUMERIC;
        return super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) return MAX_NUMERIC;
        return super.getDefaultPrecision(typeName);
    }

    @Override
    public int getDefaultScale(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) return UNCONSTRAINED_SCALE;
        return super.getDefaultScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory f, RelDataType arg) {
        RelDataType t = switch (arg.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> f.createSqlType(SqlTypeName.BIGINT);
            case BIGINT, DECIMAL -> unconstrainedNumeric(f);
            case REAL, FLOAT -> f.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            default -> arg;
        };
        return f.createTypeWithNullability(t, arg.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory f, RelDataType arg) {
        RelDataType t = switch (arg.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> unconstrainedNumeric(f);
            case REAL, FLOAT, DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            default -> arg;
        };
        return f.createTypeWithNullability(t, arg.isNullable());
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() { return true; }

    static RelDataType unconstrainedNumeric(RelDataTypeFactory f) {
        return f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC, UNCONSTRAINED_SCALE);
    }
}
