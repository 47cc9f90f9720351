package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans over tables of {@code (k int, v int, b boolean, s text)} covering every operator
 * kind, for the compute tests. Built as PlanNodes directly (no SQL front end).
 */
final class Plans {
    static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.INTEGER, SqlType.BOOLEAN, SqlType.TEXT);
    static final Expr K = new Expr.Column(0, SqlType.INTEGER);
    static final Expr V = new Expr.Column(1, SqlType.INTEGER);

    private Plans() {}

    static PlanNode.Get get(long id, String name) { return new PlanNode.Get(id, name, TYPES); }

    static Expr call(Func f, SqlType t, Expr... args) { return new Expr.Call(f, List.of(args), t); }

    static Expr lit(Object v, SqlType t) { return new Expr.Literal(v, t); }

    static PlanNode kv(PlanNode t) { return new PlanNode.Project(t, List.of(K, V)); }

    static AggCall agg(AggFunc f, SqlType type, Integer... args) {
        return new AggCall(f, List.of(args), false, -1, List.of(), type, f.name().toLowerCase());
    }

    /** Named plans over tables t1 and t2, one per operator family (retractions matter for each). */
    static Map<String, PlanNode> over(PlanNode.Get t1, PlanNode.Get t2) {
        Map<String, PlanNode> p = new LinkedHashMap<>();
        p.put("filter", new PlanNode.Filter(t1, List.of(call(Func.GT, SqlType.BOOLEAN, V, lit(1, SqlType.INTEGER)))));
        p.put("inner_join", new PlanNode.Join(t1, t2, JoinKind.INNER, new int[] {0}, new int[] {0}, null));
        p.put("left_join", new PlanNode.Join(kv(t1), kv(t2), JoinKind.LEFT, new int[] {0}, new int[] {0}, null));
        p.put("full_join", new PlanNode.Join(kv(t1), kv(t2), JoinKind.FULL, new int[] {0}, new int[] {0},
                call(Func.LE, SqlType.BOOLEAN, new Expr.Column(1, SqlType.INTEGER), new Expr.Column(3, SqlType.INTEGER))));
        p.put("reduce", new PlanNode.Reduce(t1, new int[] {0}, List.of(
                agg(AggFunc.COUNT_STAR, SqlType.BIGINT),
                agg(AggFunc.SUM, SqlType.BIGINT, 1),
                agg(AggFunc.MIN, SqlType.INTEGER, 1),
                agg(AggFunc.MAX, SqlType.INTEGER, 1))));
        p.put("global_reduce", new PlanNode.Reduce(t2, new int[0], List.of(
                agg(AggFunc.COUNT_STAR, SqlType.BIGINT),
                agg(AggFunc.MIN, SqlType.INTEGER, 1),
                agg(AggFunc.MAX, SqlType.TEXT, 3))));
        p.put("distinct", new PlanNode.Distinct(kv(t1)));
        p.put("union", new PlanNode.Union(List.of(kv(t1), kv(t2)), false));
        p.put("union_all_const", new PlanNode.Union(List.of(kv(t2),
                new PlanNode.Constant(List.of(Row.of(7, 7), Row.of(8, null)), List.of(SqlType.INTEGER, SqlType.INTEGER))), true));
        p.put("except", new PlanNode.Except(kv(t1), kv(t2), false));
        p.put("except_all", new PlanNode.Except(kv(t1), kv(t2), true));
        p.put("intersect", new PlanNode.Intersect(kv(t1), kv(t2), false));
        p.put("intersect_all", new PlanNode.Intersect(kv(t1), kv(t2), true));
        p.put("topk_grouped", new PlanNode.TopK(t1, new int[] {0}, List.of(new SortKey(1, false, false)), 2, 0));
        p.put("topk_global", new PlanNode.TopK(kv(t2), new int[0], List.of(new SortKey(1, true, true)), 3, 1));
        // k / v: division by zero is an error row that appears and disappears with v = 0 rows.
        p.put("errors", new PlanNode.Project(t1, List.of(K, call(Func.DIVIDE, SqlType.INTEGER, K, V))));
        return p;
    }

    static List<Row> expand(Changes c) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            if (c.diff(i) < 0) throw new AssertionError("negative multiplicity " + c.diff(i) + " for " + c.row(i));
            for (long j = 0; j < c.diff(i); j++) out.add(c.row(i));
        }
        out.sort(null);
        return out;
    }
}
