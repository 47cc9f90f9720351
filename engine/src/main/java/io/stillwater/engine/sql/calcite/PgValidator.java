package io.stillwater.engine.sql.calcite;

import java.util.function.IntFunction;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Calcite's validator with PostgreSQL's rule for parameters whose type nothing in the
 * statement determines: they take the client's hint, else text (Calcite would reject
 * them as an "illegal use of dynamic parameter"). One per statement.
 */
final class PgValidator extends SqlValidatorImpl {
    private final IntFunction<RelDataType> fallback;

    PgValidator(SqlOperatorTable ops, SqlValidatorCatalogReader reader, RelDataTypeFactory f, Config config,
                IntFunction<RelDataType> fallback) {
        super(ops, reader, f, config);
        this.fallback = fallback;
    }

    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
        if (node instanceof SqlDynamicParam p && inferredType.equals(unknownType)) {
            setValidatedNodeType(node, fallback.apply(p.getIndex()));
            return;
        }
        super.inferUnknownTypes(inferredType, scope, node);
    }
}
