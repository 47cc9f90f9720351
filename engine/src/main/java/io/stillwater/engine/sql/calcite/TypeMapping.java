package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Maps between the engine's {@link SqlType} and Calcite's {@link RelDataType}.
 *
 * <p>The mapping is lossy in places, deliberately:
 * <ul>
 *   <li>text and unbounded varchar are Calcite's unbounded VARCHAR; unbounded VARCHAR maps back to text.
 *   <li>unconstrained numeric is DECIMAL of {@link PgTypeSystem#MAX_NUMERIC} precision (see there).
 *   <li>interval is Calcite's INTERVAL DAY TO SECOND; Calcite splits intervals into year-month and
 *       day-time kinds, PostgreSQL has one kind with months, days and microseconds. Any Calcite interval
 *       maps back to interval.
 *   <li>Computed expressions (everything but column references and casts) are reported without
 *       modifiers: numeric, text. PostgreSQL does the same.
 * </ul>
 */
public final class TypeMapping {
    private TypeMapping() {}

    public static RelDataType toRel(SqlType type, RelDataTypeFactory f) {
        return switch (type.kind()) {
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case SMALLINT -> f.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> f.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case REAL -> f.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            case NUMERIC -> type.precision() == SqlType.UNSPECIFIED
                    ? PgTypeSystem.unconstrainedNumeric(f)
                    : f.createSqlType(SqlTypeName.DECIMAL, type.precision(), Math.max(type.scale(), 0));
            case TEXT, UNKNOWN -> f.createSqlType(SqlTypeName.VARCHAR);
            case VARCHAR -> type.precision() == SqlType.UNSPECIFIED
                    ? f.createSqlType(SqlTypeName.VARCHAR)
                    : f.createSqlType(SqlTypeName.VARCHAR, type.precision());
            case CHAR -> f.createSqlType(SqlTypeName.CHAR, type.precision() == SqlType.UNSPECIFIED ? 1 : type.precision());
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIME -> f.createSqlType(SqlTypeName.TIME, 6);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, 6);
            case TIMESTAMPTZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
            case INTERVAL -> f.createSqlIntervalType(
                    new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO));
            case BYTEA -> f.createSqlType(SqlTypeName.VARBINARY);
            case ARRAY -> f.createArrayType(f.createTypeWithNullability(toRel(type.element(), f), true), -1);
            case JSONB -> f.createSqlType(SqlTypeName.VARIANT); // Calcite's document type: only jsonb uses it
        };
    }

    /** The engine type of a computed expression: no modifiers, character types are text. */
    public static SqlType fromRel(RelDataType type) { return fromRel(type, false); }

    /**
     * @param keepModifiers true for explicit casts and stored columns: keep varchar(n),
     *     char(n), numeric(p,s).
     */
    public static SqlType fromRel(RelDataType type, boolean keepModifiers) {
        SqlTypeName name = type.getSqlTypeName();
        switch (name) {
            case BOOLEAN: return SqlType.BOOLEAN;
            case TINYINT: case SMALLINT: return SqlType.SMALLINT;
            case INTEGER: return SqlType.INTEGER;
            case BIGINT: return SqlType.BIGINT;
            case REAL: return SqlType.REAL;
            case FLOAT: case DOUBLE: return SqlType.DOUBLE;
            case DECIMAL:
                if (!keepModifiers || type.getPrecision() >= PgTypeSystem.MAX_NUMERIC) return SqlType.NUMERIC;
                return SqlType.numeric(type.getPrecision(), type.getScale());
            case CHAR:
                return keepModifiers ? SqlType.character(type.getPrecision()) : SqlType.TEXT;
            case VARCHAR:
                if (!keepModifiers || type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                        || type.getPrecision() >= 65536) return SqlType.TEXT;
                return SqlType.varchar(type.getPrecision());
            case DATE: return SqlType.DATE;
            case TIME: case TIME_WITH_LOCAL_TIME_ZONE: case TIME_TZ: return SqlType.TIME;
            case TIMESTAMP: return SqlType.TIMESTAMP;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: case TIMESTAMP_TZ: return SqlType.TIMESTAMPTZ;
            case BINARY: case VARBINARY: return SqlType.BYTEA;
            case NULL: case UNKNOWN: return SqlType.UNKNOWN;
            case SYMBOL: return SqlType.TEXT;
            case VARIANT: return SqlType.JSONB;
            case ARRAY: return SqlType.arrayOf(fromRel(type.getComponentType(), keepModifiers));
            default:
                if (name.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
                        || name.getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                    return SqlType.INTERVAL;
                }
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "type " + name.getName().toLowerCase(Locale.ROOT) + " is not supported");
        }
    }

    static boolean isStringKind(TypeKind k) { return k.isString() || k == TypeKind.UNKNOWN; }
}
