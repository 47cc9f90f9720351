package io.stillwater.engine.sql.calcite;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Replaces a scalar subquery without FROM ({@code (SELECT expr)}) by {@code expr} itself,
 * its references to the outer row becoming references to the input of the Project or
 * Filter that holds it.
 *
 * <p>Why: decorrelation computes a correlated subquery's expression for every outer row,
 * beside the query, and joins the results back. Under CASE, COALESCE, AND or OR that means
 * the subquery runs for rows whose branch is not taken, so
 * {@code CASE WHEN y > 0 THEN (SELECT 10 / y) ELSE 0 END} failed with division by zero
 * where PostgreSQL evaluates the subquery only for the rows that reach it. Inlined, the
 * expression is evaluated where it stands, and the engine evaluates CASE, COALESCE, AND
 * and OR lazily, as PostgreSQL does. A subquery with a FROM clause is left to
 * decorrelation.
 *
 * <p>The subquery's value is the expression's, made nullable (a scalar subquery's type
 * always is): for one row from a one-row VALUES with no filter the two agree.
 */
final class ScalarSubqueryInliner extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    private ScalarSubqueryInliner(RexBuilder rexBuilder) { this.rexBuilder = rexBuilder; }

    static RelNode apply(RelNode rel, RexBuilder rexBuilder) {
        return rel.accept(new ScalarSubqueryInliner(rexBuilder));
    }

    @Override
    public RelNode visit(LogicalProject project) {
        LogicalProject p = (LogicalProject) super.visit(project);
        Inline inline = new Inline(p.getVariablesSet());
        List<RexNode> exprs = inline.apply(p.getProjects());
        if (!inline.changed) return p;
        return p.copy(p.getTraitSet(), p.getInput(), exprs, p.getRowType());
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        LogicalFilter f = (LogicalFilter) super.visit(filter);
        Inline inline = new Inline(f.getVariablesSet());
        RexNode condition = f.getCondition().accept(inline);
        if (!inline.changed) return f;
        return f.copy(f.getTraitSet(), f.getInput(), condition);
    }

    /** Inlines the subqueries of one node's expressions; {@code outer} are the node's correlation ids. */
    private final class Inline extends RexShuttle {
        private final Set<CorrelationId> outer;
        boolean changed;

        Inline(Set<CorrelationId> outer) { this.outer = outer; }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            // Subqueries nested in this one's relational tree get the same treatment.
            RelNode rel = ScalarSubqueryInliner.apply(subQuery.rel, rexBuilder);
            RexSubQuery visited = rel == subQuery.rel ? subQuery : subQuery.clone(rel);
            RexNode operands = null;
            if (visited.getKind() == SqlKind.SCALAR_QUERY) operands = inlined(visited);
            if (operands != null) {
                changed = true;
                return operands;
            }
            if (visited != subQuery) changed = true;
            return super.visitSubQuery(visited);
        }

        /** The subquery's expression over the outer row, or null when it is not {@code (SELECT expr)}. */
        private RexNode inlined(RexSubQuery subQuery) {
            if (!(subQuery.rel instanceof LogicalProject project) || project.getProjects().size() != 1
                    || !project.getVariablesSet().isEmpty()
                    || !(project.getInput() instanceof LogicalValues values) || values.getTuples().size() != 1) {
                return null;
            }
            RexNode expr = project.getProjects().get(0);
            if (RexUtil.SubQueryFinder.find(expr) != null) return null;
            List<RexLiteral> row = values.getTuples().get(0);
            boolean[] foreign = {false};
            RexNode moved = expr.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) { return row.get(ref.getIndex()); }

                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v) {
                        if (!outer.contains(v.id)) {
                            foreign[0] = true;
                            return access;
                        }
                        return new RexInputRef(access.getField().getIndex(), access.getType());
                    }
                    return super.visitFieldAccess(access);
                }

                @Override
                public RexNode visitCorrelVariable(RexCorrelVariable v) {
                    foreign[0] = true; // the whole outer row as a value: leave it to decorrelation
                    return v;
                }
            });
            if (foreign[0]) return null;
            if (moved.getType().equals(subQuery.getType())) return moved;
            return rexBuilder.makeCast(subQuery.getType(), moved, true, false);
        }
    }
}
