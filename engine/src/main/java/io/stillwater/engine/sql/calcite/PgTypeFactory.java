package io.stillwater.engine.sql.calcite;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeMappingRule;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type factory with two PostgreSQL rules:
 * <ul>
 *   <li>Text is Unicode (UTF8 databases); Calcite's default charset, ISO-8859-1, rejects
 *       literals like '日本' when it types or casts them.
 *   <li>The common type of a multi-row VALUES column, a UNION, CASE, COALESCE, GREATEST,
 *       an IN list ... ({@link #leastRestrictive}) keeps a numeric type modifier only when
 *       every input has that same modifier, as PostgreSQL's {@code select_common_typmod}
 *       does. Otherwise it is unconstrained {@code numeric}, and each value keeps its own
 *       scale: {@code VALUES (2.0), (4)} is 2.0 and 4. Calcite would pick
 *       {@code DECIMAL(11,1)} and turn 4 into 4.0.
 * </ul>
 * Stateless, so one instance serves every statement and thread.
 */
final class PgTypeFactory extends JavaTypeFactoryImpl {
    PgTypeFactory() { super(PgTypeSystem.INSTANCE); }

    @Override
    public Charset getDefaultCharset() { return StandardCharsets.UTF_8; }

    @Override
    public RelDataType leastRestrictive(List<RelDataType> types, SqlTypeMappingRule mappingRule) {
        RelDataType common = super.leastRestrictive(types, mappingRule);
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL || sameTypmod(types, common)) {
            return common;
        }
        return createTypeWithNullability(PgTypeSystem.unconstrainedNumeric(this), common.isNullable());
    }

    /** Whether every input (NULL aside) is the common DECIMAL type itself, modifiers included. */
    private static boolean sameTypmod(List<RelDataType> types, RelDataType common) {
        for (RelDataType t : types) {
            if (t.getSqlTypeName() == SqlTypeName.NULL) continue;
            if (t.getSqlTypeName() != SqlTypeName.DECIMAL || t.getPrecision() != common.getPrecision()
                    || t.getScale() != common.getScale()) {
                return false;
            }
        }
        return true;
    }
}
