package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;

/**
 * After decorrelation: a correlated scalar subquery's per-key {@code SINGLE_VALUE}
 * aggregate only sees the keys of outer rows that reach it.
 *
 * <p>Why: for {@code SELECT (SELECT y FROM nj WHERE nj.k = ni.k) FROM ni WHERE k <> 1}
 * the decorrelator drops the value generator (the distinct outer keys) and groups the
 * whole of {@code nj} by {@code k}, so key 1's two rows raise 21000 (more than one row)
 * although the outer filter removed every row with key 1; PostgreSQL never runs the
 * subquery for them. Restricting the aggregate's input to the keys of the join's outer
 * side (after its filters) keeps the error for exactly the rows PostgreSQL evaluates:
 * <pre>
 *   Join(outer, Aggregate(group: k; SINGLE_VALUE(..)) over in, on outer.c = k)
 *   ==> Join(outer, Aggregate(..) over Project(in.*) over
 *              Join(in, Aggregate(group: c) over Project(c) over outer, on in.k = c), on outer.c = k)
 * </pre>
 * Only joins whose condition is exactly equalities between outer columns and all of the
 * aggregate's group keys change; others (null-safe joins of a value generator) stay.
 * Invariant: the rewritten aggregate's groups are a subset of the original's, and every
 * group some outer row joins to is unchanged, so the join's result is the same.
 */
final class SingleValueKeys extends RelShuttleImpl {
    private final RelBuilder builder;

    private SingleValueKeys(RelBuilder builder) { this.builder = builder; }

    static RelNode apply(RelNode rel, RelBuilder builder) {
        return rel.accept(new SingleValueKeys(builder));
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin j = (LogicalJoin) super.visit(join);
        if (j.getJoinType() != JoinRelType.LEFT && j.getJoinType() != JoinRelType.INNER) return j;
        if (!(j.getRight() instanceof LogicalAggregate agg) || !hasSingleValue(agg)
                || agg.getGroupType() != LogicalAggregate.Group.SIMPLE) {
            return j;
        }
        int nLeft = j.getLeft().getRowType().getFieldCount();
        int nKeys = agg.getGroupCount();
        int[] outerColumnOfKey = new int[nKeys];
        java.util.Arrays.fill(outerColumnOfKey, -1);
        for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
            if (c.getKind() != SqlKind.EQUALS || !(c instanceof RexCall call)
                    || !(call.getOperands().get(0) instanceof RexInputRef a)
                    || !(call.getOperands().get(1) instanceof RexInputRef b)) {
                return j;
            }
            int left = Math.min(a.getIndex(), b.getIndex());
            int right = Math.max(a.getIndex(), b.getIndex()) - nLeft;
            if (left >= nLeft || right < 0 || right >= nKeys) return j;
            outerColumnOfKey[right] = left;
        }
        for (int col : outerColumnOfKey) if (col < 0) return j;
        RelNode in = agg.getInput();
        int nIn = in.getRowType().getFieldCount();
        List<Integer> groupColumns = agg.getGroupSet().asList();
        // The distinct outer keys, in group-key order.
        builder.push(j.getLeft());
        List<RexNode> outerKeys = new ArrayList<>();
        for (int col : outerColumnOfKey) outerKeys.add(builder.field(col));
        builder.project(outerKeys).distinct();
        RelNode keys = builder.build();
        builder.push(in).push(keys);
        List<RexNode> eqs = new ArrayList<>();
        for (int k = 0; k < nKeys; k++) {
            eqs.add(builder.equals(builder.field(2, 0, groupColumns.get(k)), builder.field(2, 1, k)));
        }
        builder.join(JoinRelType.INNER, eqs);
        List<RexNode> inColumns = new ArrayList<>();
        for (int i = 0; i < nIn; i++) inColumns.add(builder.field(i));
        builder.project(inColumns);
        RelNode restricted = builder.build();
        RelNode newAgg = agg.copy(agg.getTraitSet(), restricted, agg.getGroupSet(), agg.getGroupSets(),
                agg.getAggCallList());
        return j.copy(j.getTraitSet(), j.getCondition(), j.getLeft(), newAgg, j.getJoinType(), j.isSemiJoinDone());
    }

    private static boolean hasSingleValue(LogicalAggregate agg) {
        for (AggregateCall call : agg.getAggCallList()) {
            if (call.getAggregation().getKind() == SqlKind.SINGLE_VALUE) return true;
        }
        return false;
    }

}
