package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code GROUP BY GROUPING SETS / ROLLUP / CUBE} as a union of plain aggregates, one per
 * grouping set, over the one shared input plan (so the input is computed once):
 * <pre>
 *   GROUP BY GROUPING SETS ((a, b), (a), ())
 *     = Project[a, b, aggs...](Reduce by a, b)
 *       UNION ALL Project[a, NULL, aggs...](Reduce by a)
 *       UNION ALL Project[NULL, NULL, aggs...](Reduce by ())
 * </pre>
 * Every branch has the aggregate's output shape: all grouping columns (NULL where the set
 * does not group by them) then one column per aggregate call. {@code GROUPING(x, y, ...)}
 * is a constant per branch: bit i (from the most significant, as in PostgreSQL) is 1 when
 * the i-th argument is not grouped in that set. Because each branch is an ordinary Reduce,
 * the union is maintained incrementally like any other plan; the empty set keeps SQL's
 * global-aggregate rule (one row even over no input), as PostgreSQL's ROLLUP does.
 */
final class GroupingSets {
    private GroupingSets() {}

    /**
     * @param in the translated input of {@code a}
     * @param simple builds a plain aggregate of {@code in} grouped by the given input
     *     columns, computing the given calls; its output is the keys then one column per call
     */
    static PlanNode expand(LogicalAggregate a, PlanNode in, BiFunction<int[], List<AggregateCall>, PlanNode> simple) {
        List<Integer> allKeys = a.getGroupSet().asList();
        List<AggregateCall> ordinary = new ArrayList<>();
        for (AggregateCall call : a.getAggCallList()) if (!isGroupingFunction(call)) ordinary.add(call);
        List<SqlType> outTypes = new ArrayList<>();
        for (var f : a.getRowType().getFieldList()) outTypes.add(TypeMapping.fromRel(f.getType()));

        List<PlanNode> branches = new ArrayList<>();
        for (ImmutableBitSet set : a.getGroupSets()) {
            int[] keys = set.toArray();
            PlanNode reduce = simple.apply(keys, ordinary);
            List<Expr> exprs = new ArrayList<>();
            for (int i = 0; i < allKeys.size(); i++) {
                int key = allKeys.get(i);
                SqlType t = outTypes.get(i);
                int pos = set.indexOf(key);
                exprs.add(pos >= 0 ? new Expr.Column(pos, reduce.types().get(pos)) : new Expr.Literal(null, t));
            }
            int next = keys.length;
            for (int j = 0; j < a.getAggCallList().size(); j++) {
                AggregateCall call = a.getAggCallList().get(j);
                SqlType t = outTypes.get(allKeys.size() + j);
                if (isGroupingFunction(call)) {
                    exprs.add(new Expr.Literal(number(groupingValue(call, set), t), t));
                } else {
                    exprs.add(new Expr.Column(next, reduce.types().get(next)));
                    next++;
                }
            }
            branches.add(new PlanNode.Project(reduce, exprs));
        }
        return branches.size() == 1 ? branches.get(0) : new PlanNode.Union(branches, true);
    }

    private static boolean isGroupingFunction(AggregateCall call) {
        SqlKind k = call.getAggregation().getKind();
        return k == SqlKind.GROUPING || k == SqlKind.GROUPING_ID || k == SqlKind.GROUP_ID;
    }

    /** GROUPING(args) in the branch of {@code set}; GROUP_ID is 0 (each set is its own branch). */
    private static long groupingValue(AggregateCall call, ImmutableBitSet set) {
        if (call.getAggregation().getKind() == SqlKind.GROUP_ID) return 0;
        long v = 0;
        for (int arg : call.getArgList()) v = (v << 1) | (set.get(arg) ? 0 : 1);
        return v;
    }

    private static Object number(long v, SqlType t) {
        return switch (t.kind()) {
            case SMALLINT -> (short) v;
            case INTEGER -> (int) v;
            case BIGINT -> v;
            default -> new java.math.BigDecimal(v);
        };
    }
}
