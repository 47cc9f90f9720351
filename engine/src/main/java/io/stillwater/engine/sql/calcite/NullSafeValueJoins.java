package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * After decorrelation: joins an outer row to its subquery's per-value aggregate with
 * {@code IS NOT DISTINCT FROM} wherever the decorrelator joined it with {@code =}.
 *
 * <p>For a correlated {@code NOT IN} (and other subqueries whose count matters) the
 * decorrelator computes the subquery's counts per distinct outer value, through a
 * "value generator" (the distinct correlation values, NULL included, left-joined to the
 * counts and with a missing count made 0), and left-joins the outer rows to that. When
 * the query has a second such subquery it sometimes spells the outer join with
 * {@code =}, so an outer row whose correlation value is NULL meets no count: the count
 * is NULL instead of 0 and {@code x NOT IN (empty subquery)} came out NULL, dropping the
 * row. Joining on a value-generator key is always meant null-safe (the generator holds
 * the NULL value precisely to be matched), so those equalities become
 * {@code IS NOT DISTINCT FROM}:
 * <pre>
 *   LeftJoin(outer, Project(key, CASE(count IS NOT NULL, count, 0), ...)
 *                     over LeftJoin[IS NOT DISTINCT FROM](Aggregate(group: key; no calls), counts),
 *            on outer.x = key)
 *   ==> the same on outer.x IS NOT DISTINCT FROM key
 * </pre>
 */
final class NullSafeValueJoins extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    private NullSafeValueJoins(RexBuilder rexBuilder) { this.rexBuilder = rexBuilder; }

    static RelNode apply(RelNode rel, RexBuilder rexBuilder) {
        return rel.accept(new NullSafeValueJoins(rexBuilder));
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin j = (LogicalJoin) super.visit(join);
        if (j.getJoinType() != JoinRelType.LEFT) return j;
        Set<Integer> keys = valueGeneratorKeys(j.getRight());
        if (keys.isEmpty()) return j;
        int nLeft = j.getLeft().getRowType().getFieldCount();
        boolean changed = false;
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                    && call.getOperands().get(0) instanceof RexInputRef a
                    && call.getOperands().get(1) instanceof RexInputRef b) {
                int right = a.getIndex() >= nLeft ? a.getIndex() : b.getIndex();
                int left = a.getIndex() >= nLeft ? b.getIndex() : a.getIndex();
                if (left < nLeft && right >= nLeft && keys.contains(right - nLeft)) {
                    conjuncts.add(rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, a, b));
                    changed = true;
                    continue;
                }
            }
            conjuncts.add(c);
        }
        if (!changed) return j;
        return j.copy(j.getTraitSet(), RexUtil.composeConjunction(rexBuilder, conjuncts), j.getLeft(), j.getRight(),
                j.getJoinType(), j.isSemiJoinDone());
    }

    /**
     * The output columns of {@code rel} that are keys of a value generator, when {@code rel}
     * is the decorrelator's count-with-default shape; else none.
     */
    private static Set<Integer> valueGeneratorKeys(RelNode rel) {
        Set<Integer> out = new HashSet<>();
        if (!(rel instanceof LogicalProject p) || !(p.getInput() instanceof LogicalJoin inner)
                || inner.getJoinType() != JoinRelType.LEFT || !(inner.getLeft() instanceof Aggregate gen)
                || !gen.getAggCallList().isEmpty() || gen.getGroupType() != Aggregate.Group.SIMPLE) {
            return out;
        }
        boolean nullSafe = false;
        for (RexNode c : RelOptUtil.conjunctions(inner.getCondition())) nullSafe |= c.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
        if (!nullSafe) return out;
        int genWidth = gen.getRowType().getFieldCount();
        for (int i = 0; i < p.getProjects().size(); i++) {
            if (p.getProjects().get(i) instanceof RexInputRef r && r.getIndex() < genWidth) out.add(i);
        }
        return out;
    }
}
