package io.stillwater.engine.sql.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Before decorrelation, two preparations of LATERAL correlations. First: a {@code LATERAL} subquery that is a grouping-free aggregate
 * ({@code LATERAL (SELECT max(y) FROM u WHERE u.x = t.a)}) is joined as a LEFT
 * correlation instead of an INNER one.
 *
 * <p>Why: such a subquery yields exactly one row for every outer row (NULL or 0 over no
 * input), so INNER and LEFT mean the same; but the decorrelator groups the subquery by the
 * correlation value, which has no group for an outer row without matches, and only for a
 * LEFT correlation does it put those rows back (NULL-extended, with the count-bug fix that
 * makes {@code count(*)} 0). As INNER the row vanished. Second: the outer side of a
 * lateral function call is decorrelated on its own (see {@link #visit(LogicalCorrelate)}).
 */
final class LateralJoins extends RelShuttleImpl {
    private final RelBuilder builder;

    private LateralJoins(RelBuilder builder) { this.builder = builder; }

    static RelNode apply(RelNode rel, RelBuilder builder) {
        return rel.accept(new LateralJoins(builder));
    }

    @Override
    public RelNode visit(LogicalCorrelate correlate) {
        RelNode n = super.visit(correlate);
        if (n instanceof LogicalCorrelate c && c.getRight() instanceof TableFunctionScan) {
            // A lateral function call stays a correlation (LateralCalls runs it), and the
            // decorrelator gives up on everything below one it cannot remove: decorrelate
            // the outer side on its own, so a LATERAL subquery there still becomes joins.
            RelNode left = RelDecorrelator.decorrelateQuery(c.getLeft(), builder);
            return left == c.getLeft() ? c : c.copy(c.getTraitSet(), left, c.getRight(), c.getCorrelationId(),
                    c.getRequiredColumns(), c.getJoinType());
        }
        if (n instanceof LogicalCorrelate c && c.getJoinType() == JoinRelType.INNER && alwaysOneRow(c.getRight())) {
            RelNode left = c.copy(c.getTraitSet(), c.getLeft(), c.getRight(), c.getCorrelationId(),
                    c.getRequiredColumns(), JoinRelType.LEFT);
            // The same row type as before (count(*) stays NOT NULL): the decorrelator checks it.
            RexBuilder rex = c.getCluster().getRexBuilder();
            List<RexNode> fields = new ArrayList<>();
            List<RelDataTypeField> before = c.getRowType().getFieldList();
            for (int i = 0; i < before.size(); i++) {
                RexNode ref = rex.makeInputRef(left, i);
                fields.add(ref.getType().equals(before.get(i).getType()) ? ref
                        : rex.makeAbstractCast(before.get(i).getType(), ref, false));
            }
            return LogicalProject.create(left, List.of(), fields, c.getRowType());
        }
        return n;
    }

    /** An aggregate without GROUP BY, possibly under projections: one row whatever its input. */
    private static boolean alwaysOneRow(RelNode n) {
        while (n instanceof Project p) n = p.getInput();
        return n instanceof Aggregate a && a.getGroupSet().isEmpty() && a.getGroupSets().size() == 1;
    }
}
