package io.stillwater.engine.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A RexBuilder that leaves casts of numbers to unconstrained {@code numeric} unfolded.
 *
 * <p>Calcite folds {@code CAST(10 AS numeric)} into a literal at the type's scale, which for an
 * unconstrained numeric is {@link PgTypeSystem#UNCONSTRAINED_SCALE}: the value would carry 500
 * fractional zeros, and PostgreSQL's scale rules (e.g. for division) would then yield 500-digit
 * results. PostgreSQL keeps the operand's own scale ({@code 10::numeric} is {@code 10},
 * {@code 1.50::numeric} is {@code 1.50}), which the engine's runtime cast does.
 */
final class PgRexBuilder extends RexBuilder {
    PgRexBuilder(RelDataTypeFactory typeFactory) {
        super(typeFactory);
    }

    @Override
    public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe,
                            RexLiteral format) {
        if (exp instanceof RexLiteral lit && !lit.isNull() && isUnconstrainedNumeric(type)
                && SqlTypeName.NUMERIC_TYPES.contains(lit.getType().getSqlTypeName())) {
            RelDataType target = matchNullability
                    ? getTypeFactory().createTypeWithNullability(type, exp.getType().isNullable()) : type;
            return makeAbstractCast(pos, target, exp, safe, format);
        }
        return super.makeCast(pos, type, exp, matchNullability, safe, format);
    }

    private static boolean isUnconstrainedNumeric(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == PgTypeSystem.UNCONSTRAINED_SCALE;
    }
}
