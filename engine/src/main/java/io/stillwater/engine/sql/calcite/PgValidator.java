package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Calcite's validator with PostgreSQL's rule for parameters whose type nothing in the
 * statement determines: they take the client's hint, else text (Calcite would reject
 * them as an "illegal use of dynamic parameter"). One per statement.
 *
 * <p>It also rejects what Calcite accepts but PostgreSQL does not ({@link PgQueryRules}):
 * an ORDER BY name that means two different output columns, a SELECT DISTINCT ordered
 * by an expression not in its select list, a USING/NATURAL column that appears twice
 * on one side of the join, and a LIMIT/OFFSET beyond bigint.
 */
final class PgValidator extends SqlValidatorImpl {
    private final IntFunction<RelDataType> fallback;

    PgValidator(SqlOperatorTable ops, SqlValidatorCatalogReader reader, RelDataTypeFactory f, Config config,
                IntFunction<RelDataType> fallback) {
        super(ops, reader, f, config);
        this.fallback = fallback;
    }

    @Override
    protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
        checkRowCount(select.getFetch());
        checkRowCount(select.getOffset());
        super.validateSelect(select, targetRowType);
    }

    @Override
    protected void validateOrderList(SqlSelect select) {
        PgQueryRules.checkOrderBy(select);
        super.validateOrderList(select);
    }

    @Override
    protected void validateJoin(SqlJoin join, SqlValidatorScope scope) {
        super.validateJoin(join, scope);
        PgQueryRules.checkJoinColumns(join, node -> {
            try {
                var ns = getNamespace(node);
                return ns == null ? null : ns.getRowType().getFieldNames();
            } catch (RuntimeException e) {
                return null; // unknown: leave the join to Calcite's own checks
            }
        });
    }

    /** PostgreSQL's LIMIT and OFFSET are bigint: a larger literal is out of range (22003). */
    private static void checkRowCount(SqlNode n) {
        if (n instanceof SqlNumericLiteral lit) {
            BigDecimal v = lit.getValueAs(BigDecimal.class);
            if (v != null && v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
            }
        }
    }

    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
        if (node instanceof SqlDynamicParam p && inferredType.equals(unknownType)) {
            if (getValidatedNodeTypeIfKnown(node) == null) setValidatedNodeType(node, fallback.apply(p.getIndex()));
            return;
        }
        if (node instanceof SqlCall) preInfer(scope, node);
        super.inferUnknownTypes(inferredType, scope, node);
    }

    /** Calls already pre-inferred (identity): keeps the walk linear. */
    private final Set<SqlNode> preInferred =
            Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * Calcite types a comparison's operands before it infers the parameters inside them,
     * so {@code a + $1 > 0} fails as "integer + unknown". Bottom-up, give parameters in
     * arithmetic, comparisons and coalesce-like calls the type of a typed sibling first.
     */
    private void preInfer(SqlValidatorScope scope, SqlNode node) {
        if (!(node instanceof SqlCall call) || node.isA(SqlKind.QUERY) || !preInferred.add(node)) return;
        for (SqlNode op : call.getOperandList()) if (op != null) preInfer(scope, op);
        if (SAME_TYPE_ARGS.contains(call.getKind())) inferFromSiblings(scope, call);
    }

    private static final Set<SqlKind> SAME_TYPE_ARGS =
            EnumSet.of(SqlKind.COALESCE, SqlKind.NULLIF, SqlKind.GREATEST, SqlKind.LEAST,
                    SqlKind.GREATEST_PG, SqlKind.LEAST_PG, SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES,
                    SqlKind.DIVIDE, SqlKind.MOD, SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
                    SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL,
                    SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM);

    /** coalesce(a, $1): like PostgreSQL, the parameter takes the type of its typed siblings. */
    private void inferFromSiblings(SqlValidatorScope scope, SqlCall call) {
        RelDataType known = null;
        for (SqlNode op : call.getOperandList()) {
            if (op == null || op instanceof SqlDynamicParam || SqlUtil.isNullLiteral(op, false)) continue;
            try {
                known = deriveType(scope, op);
                break;
            } catch (RuntimeException e) {
                return; // the real error is reported by normal validation
            }
        }
        if (known == null) return;
        for (SqlNode op : call.getOperandList()) {
            if (op instanceof SqlDynamicParam && getValidatedNodeTypeIfKnown(op) == null) {
                setValidatedNodeType(op, typeFactory.createTypeWithNullability(known, true));
            }
        }
    }
}
