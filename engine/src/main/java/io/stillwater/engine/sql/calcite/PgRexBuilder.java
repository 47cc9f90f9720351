package io.stillwater.engine.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * A {@link RexBuilder} that never folds a cast of a character literal to another type.
 *
 * <p>In PostgreSQL an untyped literal cast or assigned to a type is read by that type's
 * input function ({@code '\x00ff'::bytea} is two bytes, {@code '1 day 2 hours'::interval}
 * is an interval). Calcite folds such casts with its own parsers (the UTF-8 bytes of the
 * string for VARBINARY; no multi-unit intervals; timestamps without fractions). Keeping
 * the CAST lets {@link RexToExpr} hand it to the engine's casts, which use the engine's
 * text formats ({@code DatumText}) with the session's time zone.
 */
final class PgRexBuilder extends RexBuilder {
    /** An executor that reduces nothing, so simplification never folds with Calcite's runtime. */
    static final RexExecutor NO_CONSTANT_FOLDING = (rexBuilder, constExps, reducedValues) -> reducedValues.addAll(constExps);

    PgRexBuilder(RelDataTypeFactory typeFactory) { super(typeFactory); }

    @Override
    public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe,
                            RexLiteral format) {
        if (exp instanceof RexLiteral lit && !lit.isNull() && SqlTypeUtil.isCharacter(lit.getType())
                && !SqlTypeUtil.isCharacter(type) && type.getFamily() != SqlTypeFamily.ANY) {
            RelDataType t = matchNullability
                    ? typeFactory.createTypeWithNullability(type, exp.getType().isNullable()) : type;
            return makeAbstractCast(pos, t, exp, safe, format);
        }
        return super.makeCast(pos, type, exp, matchNullability, safe, format);
    }

}
