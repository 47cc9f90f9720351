package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * A correlation the decorrelator left in the plan: {@code FROM t, LATERAL
 * generate_series(1, t.a)} (or without the keyword: PostgreSQL's functions in FROM are
 * lateral) becomes {@link PlanNode.LateralSeries} over the outer side, whose arguments
 * read the outer row's columns where the call read the correlation variable. Any other
 * correlation that remains is a LATERAL item or subquery the engine cannot run: 0A000.
 */
final class LateralCalls {
    private LateralCalls() {}

    static PlanNode translate(Correlate c, RelNode left, PlanNode outer, RexToExpr rex) {
        boolean outerJoin = c.getJoinType() == JoinRelType.LEFT;
        if (!(c.getRight() instanceof LogicalTableFunctionScan scan) || !(scan.getCall() instanceof RexCall call)
                || !call.getOperator().getName().equalsIgnoreCase("generate_series") || !scan.getInputs().isEmpty()
                || !(outerJoin || c.getJoinType() == JoinRelType.INNER)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "this LATERAL item or correlated subquery is not supported (it could not be decorrelated)",
                    null, "LATERAL works with subqueries correlated through their WHERE clause and with "
                            + "generate_series; see docs/sql.md.");
        }
        // $cor.field -> the outer row's column (a Correlate's left fields come first).
        RexShuttle outerColumns = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(c.getCorrelationId())) {
                    return c.getCluster().getRexBuilder().makeInputRef(left, access.getField().getIndex());
                }
                return super.visitFieldAccess(access);
            }
        };
        List<RexNode> args = outerColumns.apply(call.getOperands());
        List<Expr> exprs = rex.translateAll(args, outer.types());
        SqlType type = TypeMapping.fromRel(scan.getRowType().getFieldList().get(0).getType());
        return new PlanNode.LateralSeries(outer, exprs, type, outerJoin);
    }
}
