package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.Harness.T1;
import static io.stillwater.engine.dataflow.Harness.T2;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Every operator, stepped through random insert/delete sequences over several times,
 * has an accumulated output equal to the plain {@link Reference} evaluation over the
 * accumulated input, after every step.
 */
class OperatorPropertiesTest {
    private static final Expr K = new Expr.Column(0, SqlType.INTEGER);
    private static final Expr V = new Expr.Column(1, SqlType.INTEGER);
    private static final Expr B = new Expr.Column(2, SqlType.BOOLEAN);
    private static final Expr S = new Expr.Column(3, SqlType.TEXT);

    @Provide
    Arbitrary<List<List<Harness.Op>>> oneTable() { return Harness.steps(1); }

    @Provide
    Arbitrary<List<List<Harness.Op>>> twoTables() { return Harness.steps(2); }

    private static Expr call(Func f, SqlType t, Expr... args) { return new Expr.Call(f, List.of(args), t); }

    private static Expr lit(Object v, SqlType t) { return new Expr.Literal(v, t); }

    /** (k, v) of a table: a small domain, so set operations see duplicates. */
    private static PlanNode kv(PlanNode t) { return new PlanNode.Project(t, List.of(K, V)); }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void mapFilterProject(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        PlanNode f1 = new PlanNode.Filter(T1, List.of(call(Func.OR, SqlType.BOOLEAN,
                call(Func.GT, SqlType.BOOLEAN, V, lit(1, SqlType.INTEGER)), call(Func.IS_NULL, SqlType.BOOLEAN, K))));
        PlanNode p1 = new PlanNode.Project(f1, List.of(S, K, B,
                new Expr.Case(List.of(B), List.of(V), lit(-1, SqlType.INTEGER), SqlType.INTEGER)));
        PlanNode f2 = new PlanNode.Filter(p1, List.of(call(Func.NOT, SqlType.BOOLEAN,
                call(Func.EQ, SqlType.BOOLEAN, new Expr.Column(0, SqlType.TEXT), lit("y", SqlType.TEXT)))));
        Harness.check(new PlanNode.Project(f2, List.of(new Expr.Column(1, SqlType.INTEGER), new Expr.Column(3, SqlType.INTEGER))), steps);
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void equiJoin(@ForAll("twoTables") List<List<Harness.Op>> steps, @ForAll JoinKind kind, @ForAll boolean residual) {
        Expr pred = residual ? call(Func.LE, SqlType.BOOLEAN, new Expr.Column(1, SqlType.INTEGER), new Expr.Column(5, SqlType.INTEGER)) : null;
        Harness.check(new PlanNode.Join(T1, T2, kind, new int[] {0}, new int[] {0}, pred), steps);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void twoKeyJoinAndCrossJoin(@ForAll("twoTables") List<List<Harness.Op>> steps, @ForAll JoinKind kind, @ForAll boolean cross) {
        PlanNode plan = cross
                ? new PlanNode.Join(kv(T1), kv(T2), kind, new int[0], new int[0],
                        call(Func.LT, SqlType.BOOLEAN, new Expr.Column(1, SqlType.INTEGER), new Expr.Column(3, SqlType.INTEGER)))
                : new PlanNode.Join(T1, T2, kind, new int[] {0, 2}, new int[] {1, 2}, null);
        Harness.check(plan, steps);
    }

    private static AggCall agg(AggFunc f, List<Integer> args, boolean distinct, int filter, List<SortKey> order, SqlType t) {
        return new AggCall(f, args, distinct, filter, order, t, f.name().toLowerCase());
    }

    private static List<AggCall> manyAggs() {
        return List.of(
                agg(AggFunc.COUNT_STAR, List.of(), false, -1, List.of(), SqlType.BIGINT),
                agg(AggFunc.COUNT, List.of(1), false, -1, List.of(), SqlType.BIGINT),
                agg(AggFunc.COUNT, List.of(1), true, -1, List.of(), SqlType.BIGINT),
                agg(AggFunc.SUM, List.of(1), false, -1, List.of(), SqlType.BIGINT),
                agg(AggFunc.SUM, List.of(1), true, 2, List.of(), SqlType.BIGINT),
                agg(AggFunc.AVG, List.of(1), false, -1, List.of(), SqlType.NUMERIC),
                agg(AggFunc.AVG, List.of(1), false, -1, List.of(), SqlType.DOUBLE),
                agg(AggFunc.SUM, List.of(1), false, -1, List.of(), SqlType.DOUBLE),
                agg(AggFunc.VAR_SAMP, List.of(1), false, -1, List.of(), SqlType.NUMERIC),
                agg(AggFunc.STDDEV_POP, List.of(1), true, -1, List.of(), SqlType.NUMERIC),
                agg(AggFunc.MIN, List.of(1), false, -1, List.of(), SqlType.INTEGER),
                agg(AggFunc.MAX, List.of(3), false, -1, List.of(), SqlType.TEXT),
                agg(AggFunc.MAX, List.of(1), false, 2, List.of(), SqlType.INTEGER),
                agg(AggFunc.BOOL_AND, List.of(2), false, -1, List.of(), SqlType.BOOLEAN),
                agg(AggFunc.BOOL_OR, List.of(2), false, -1, List.of(), SqlType.BOOLEAN),
                agg(AggFunc.STRING_AGG, List.of(3, 4), false, -1, List.of(new SortKey(1, true, true)), SqlType.TEXT),
                agg(AggFunc.STRING_AGG, List.of(3, 4), true, -1, List.of(), SqlType.TEXT));
    }

    /** t1 plus a constant separator column 4 for string_agg. */
    private static PlanNode withSeparator(PlanNode t) {
        return new PlanNode.Project(t, List.of(K, V, B, S, lit(",", SqlType.TEXT)));
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void groupedReduce(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        Harness.check(new PlanNode.Reduce(withSeparator(T1), new int[] {0}, manyAggs()), steps);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void globalReduce(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        Harness.check(new PlanNode.Reduce(withSeparator(T1), new int[0], manyAggs()), steps);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void reduceByTwoKeysWithSingleValueErrors(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        Harness.check(new PlanNode.Reduce(T1, new int[] {0, 2},
                List.of(agg(AggFunc.SINGLE_VALUE, List.of(3), false, -1, List.of(), SqlType.TEXT),
                        agg(AggFunc.COUNT_STAR, List.of(), false, -1, List.of(), SqlType.BIGINT))), steps);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void distinctAndUnion(@ForAll("twoTables") List<List<Harness.Op>> steps, @ForAll boolean all) {
        PlanNode plan = new PlanNode.Union(List.of(kv(T1), kv(T2), new PlanNode.Distinct(kv(T1))), all);
        Harness.check(plan, steps);
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void exceptAndIntersect(@ForAll("twoTables") List<List<Harness.Op>> steps, @ForAll boolean all, @ForAll boolean except) {
        PlanNode plan = except ? new PlanNode.Except(kv(T1), kv(T2), all) : new PlanNode.Intersect(kv(T1), kv(T2), all);
        Harness.check(plan, steps);
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void topK(@ForAll("oneTable") List<List<Harness.Op>> steps, @ForAll boolean grouped, @ForAll boolean desc,
              @ForAll boolean nullsFirst, @IntRange(min = -1, max = 3) @ForAll int limit,
              @IntRange(min = 0, max = 2) @ForAll int offset) {
        PlanNode in = new PlanNode.Project(T1, List.of(K, V, S));
        PlanNode plan = new PlanNode.TopK(in, grouped ? new int[] {0} : new int[0],
                List.of(new SortKey(1, desc, nullsFirst)), limit, offset);
        Harness.check(plan, steps);
    }
}
