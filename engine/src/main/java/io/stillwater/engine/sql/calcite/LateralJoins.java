package io.stillwater.engine.sql.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Before decorrelation: a {@code LATERAL} subquery that is a grouping-free aggregate
 * ({@code LATERAL (SELECT max(y) FROM u WHERE u.x = t.a)}) is joined as a LEFT
 * correlation instead of an INNER one.
 *
 * <p>Why: such a subquery yields exactly one row for every outer row (NULL or 0 over no
 * input), so INNER and LEFT mean the same; but the decorrelator groups the subquery by the
 * correlation value, which has no group for an outer row without matches, and only for a
 * LEFT correlation does it put those rows back (NULL-extended, with the count-bug fix that
 * makes {@code count(*)} 0). As INNER the row vanished.
 */
final class LateralJoins extends RelShuttleImpl {
    static RelNode apply(RelNode rel) {
        return rel.accept(new LateralJoins());
    }

    @Override
    public RelNode visit(LogicalCorrelate correlate) {
        RelNode n = super.visit(correlate);
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
