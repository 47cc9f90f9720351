package io.stillwater.engine.sql.calcite;

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
 */
final class PgRexBuilder extends RexBuilder {
    /** An executor that reduces nothing, so simplification never folds with Calcite's runtime. */
    static final RexExecutor NO_CONSTANT_FOLDING = (rexBuilder, constExps, reducedValues) -> reducedValues.addAll(constExps);

    PgRexBuilder(RelDataTypeFactory typeFactory) { super(typeFactory); }

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
        return type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == PgTypeSystem.UNCONSTRAINED_SCALE
                && SqlTypeName.NUMERIC_TYPES.contains(lit.getType().getSqlTypeName());
    }
}
