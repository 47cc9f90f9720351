package io.stillwater.engine.sql.calcite;

import java.math.BigDecimal;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * A {@link RexBuilder} that keeps two kinds of casts from being folded by Calcite, so the
 * engine's own casts evaluate them with PostgreSQL's rules:
 * <ul>
 *   <li>Casts of a character literal to another type. In PostgreSQL an untyped literal
 *       cast or assigned to a type is read by that type's input function
 *       ({@code '\\x00ff'::bytea} is two bytes, {@code '1 day 2 hours'::interval} is an
 *       interval). Calcite folds such casts with its own parsers (the UTF-8 bytes of the
 *       string for VARBINARY; no multi-unit intervals; timestamps without fractions).</li>
 *   <li>Casts of numbers to unconstrained {@code numeric}. Calcite folds
 *       {@code CAST(10 AS numeric)} into a literal at the type's scale, which for an
 *       unconstrained numeric is {@link PgTypeSystem#UNCONSTRAINED_SCALE}: 500 fractional
 *       zeros, and PostgreSQL's scale rules (e.g. for division) would then yield 500-digit
 *       results. PostgreSQL keeps the operand's own scale.</li>
 * </ul>
 *
 * <p>It also keeps the literals of a multi-row VALUES at their own scale when the column is
 * unconstrained {@code numeric} (see {@link #makeExactLiteral}).
 *
 * <p>One instance per planned statement, used by one thread.
 */
final class PgRexBuilder extends RexBuilder {
    /** An executor that reduces nothing, so simplification never folds with Calcite's runtime. */
    static final RexExecutor NO_CONSTANT_FOLDING = (rexBuilder, constExps, reducedValues) -> reducedValues.addAll(constExps);

    PgRexBuilder(RelDataTypeFactory typeFactory) { super(typeFactory); }

    /** The value of the exact literal made last, at its own scale; null: none yet. */
    private BigDecimal lastExact;

    /**
     * Calcite converts each literal of an all-literal VALUES in two steps: the literal at its
     * own type ({@code 4}: INTEGER), then that value rescaled to the column's type and made
     * again. For an unconstrained numeric column the rescale is to
     * {@link PgTypeSystem#UNCONSTRAINED_SCALE} (4 becomes 4 with 500 zeros); PostgreSQL's
     * numeric keeps each value's own scale (4 stays 4, 2.0 stays 2.0). So when a literal of
     * the unconstrained type equals the literal made just before, it takes that one's value,
     * typed {@code DECIMAL(MAX_NUMERIC, its scale)}: still unconstrained {@code numeric} to
     * {@link TypeMapping}, and assignable to the column's type. Other types are left alone.
     */
    @Override
    public RexLiteral makeExactLiteral(BigDecimal bd, RelDataType type) {
        BigDecimal previous = lastExact;
        lastExact = bd;
        if (bd != null && previous != null && isUnconstrained(type) && previous.compareTo(bd) == 0) {
            BigDecimal own = previous.scale() < 0 ? previous.setScale(0) : previous;
            lastExact = own;
            RelDataType ownType = typeFactory.createTypeWithNullability(
                    typeFactory.createSqlType(SqlTypeName.DECIMAL, PgTypeSystem.MAX_NUMERIC, own.scale()),
                    type.isNullable());
            return super.makeExactLiteral(own, ownType);
        }
        return super.makeExactLiteral(bd, type);
    }

    private static boolean isUnconstrained(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == PgTypeSystem.UNCONSTRAINED_SCALE;
    }

    @Override
    public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe,
                            RexLiteral format) {
        if (exp instanceof RexLiteral lit && !lit.isNull() && (isCharacterToOther(lit, type) || isNumberToUnconstrained(lit, type))) {
            RelDataType t = matchNullability
                    ? typeFactory.createTypeWithNullability(type, exp.getType().isNullable()) : type;
            return makeAbstractCast(pos, t, exp, safe, format);
        }
        return super.makeCast(pos, type, exp, matchNullability, safe, format);
    }

    private static boolean isCharacterToOther(RexLiteral lit, RelDataType type) {
        return SqlTypeUtil.isCharacter(lit.getType()) && !SqlTypeUtil.isCharacter(type)
                && type.getFamily() != SqlTypeFamily.ANY;
    }

    private static boolean isNumberToUnconstrained(RexLiteral lit, RelDataType type) {
        return isUnconstrained(type) && SqlTypeName.NUMERIC_TYPES.contains(lit.getType().getSqlTypeName());
    }
}
