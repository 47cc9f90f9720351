package io.stillwater.engine.dataflow;

import java.math.BigDecimal;
import static io.stillwater.engine.dataflow.TestPlans.agg;
import static io.stillwater.engine.dataflow.TestPlans.call;
import static io.stillwater.engine.dataflow.TestPlans.col;
import static io.stillwater.engine.dataflow.TestPlans.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The maintained API (step by step) and the one-shot read around it. */
class DataflowTest {
    private static final List<SqlType> KV = List.of(SqlType.INTEGER, SqlType.TEXT);
    private static final PlanNode.Get ORDERS = new PlanNode.Get(1, "orders", KV);
    private static final PlanNode.Get NAMES = new PlanNode.Get(2, "names", KV);

    @Test
    void maintainedGlobalCountReplacesItsRowAtEveryStep() {
        PlanNode plan = new PlanNode.Reduce(ORDERS, new int[0], List.of(agg(AggFunc.COUNT_STAR, SqlType.BIGINT)));
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).build(plan);
        assertThat(df.sourceIds()).containsExactly(1L);
        // The first step emits the empty-input row even without input.
        assertThat(df.step(10, Map.of()).ok().asList()).extracting(d -> d.row() + ":" + d.diff()).containsExactly("[0]:1");
        Delta d2 = df.step(20, Map.of(1L, new Changes().add(Row.of(1, "a"), 1).add(Row.of(2, "b"), 1)));
        assertThat(d2.ok().consolidate().asList()).extracting(d -> d.row() + ":" + d.diff()).containsExactly("[0]:-1", "[2]:1");
        assertThat(df.step(30, Map.of()).ok().isEmpty()).isTrue();
        Delta d4 = df.step(40, Map.of(1L, new Changes().add(Row.of(1, "a"), -1).add(Row.of(2, "b"), -1)));
        assertThat(d4.ok().consolidate().asList()).extracting(d -> d.row() + ":" + d.diff()).containsExactly("[0]:1", "[2]:-1");
    }

    @Test
    void stepsMustNotGoBackInTime() {
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).build(ORDERS);
        df.step(5, Map.of());
        assertThatThrownBy(() -> df.step(4, Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneShotReadOfAJoinAggregateWithFinishing() {
        Map<Long, Changes> db = Map.of(
                1L, new Changes().add(Row.of(1, "x"), 2).add(Row.of(2, "y"), 1).add(Row.of(3, "z"), 1),
                2L, new Changes().add(Row.of(1, "one"), 1).add(Row.of(2, "two"), 1));
        // SELECT n.v, count(*) FROM orders o LEFT JOIN names n ON o.k = n.k GROUP BY n.v ORDER BY 1 NULLS FIRST
        PlanNode join = new PlanNode.Join(ORDERS, NAMES, JoinKind.LEFT, new int[] {0}, new int[] {0}, null);
        PlanNode reduce = new PlanNode.Reduce(join, new int[] {3}, List.of(agg(AggFunc.COUNT_STAR, SqlType.BIGINT)));
        Changes result = OneShotRead.run(reduce, (id, asOf) -> {
            assertThat(asOf).isEqualTo(77);
            return db.get(id);
        }, 77, EvalContext.defaults(), Cancellation.NONE);
        QueryPlan qp = new QueryPlan(reduce, List.of(new SortKey(0, false, true)), -1, 0, List.of("v", "count"),
                List.of(SqlType.TEXT, SqlType.BIGINT));
        assertThat(Finishing.apply(qp, result)).containsExactly(Row.of(null, 1L), Row.of("one", 2L), Row.of("two", 1L));
    }

    @Test
    void sharedSubplansAndRepeatedGetsReadEachInputOnce() {
        PlanNode filtered = new PlanNode.Filter(ORDERS, List.of(call(Func.GT, SqlType.BOOLEAN, col(0, SqlType.INTEGER), lit(1, SqlType.INTEGER))));
        PlanNode plan = new PlanNode.Intersect(filtered, new PlanNode.Union(List.of(filtered, ORDERS), true), true);
        AtomicInteger reads = new AtomicInteger();
        Changes result = OneShotRead.run(plan, (id, asOf) -> {
            reads.incrementAndGet();
            return new Changes().add(Row.of(1, "a"), 1).add(Row.of(2, "b"), 3);
        }, 1, EvalContext.defaults(), Cancellation.NONE);
        assertThat(reads.get()).isEqualTo(1);
        assertThat(TestPlans.rows(result)).containsExactly(Row.of(2, "b"), Row.of(2, "b"), Row.of(2, "b"));
    }

    @Test
    void cancellationStopsARead() {
        Changes big = new Changes();
        for (int i = 0; i < 50_000; i++) big.add(Row.of(i, "r"), 1);
        AtomicInteger checks = new AtomicInteger();
        Cancellation cancelAfterFew = () -> {
            if (checks.incrementAndGet() > 3) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        };
        PlanNode plan = new PlanNode.Filter(ORDERS, List.of(call(Func.GE, SqlType.BOOLEAN, col(0, SqlType.INTEGER), lit(0, SqlType.INTEGER))));
        assertThatThrownBy(() -> OneShotRead.run(plan, (id, asOf) -> big, 1, EvalContext.defaults(), cancelAfterFew))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED));
        // Polled inside the operator's loop, not only between operators (2 nodes here).
        AtomicInteger polls = new AtomicInteger();
        OneShotRead.run(plan, (id, asOf) -> big, 1, EvalContext.defaults(), polls::incrementAndGet);
        assertThat(polls.get()).isGreaterThan(10);
    }

    @Test
    void largeFilteredReadIsCorrect() {
        Changes big = new Changes(100_000);
        for (int i = 0; i < 100_000; i++) big.add(Row.of(i, (i % 10 == 0) ? "ten" : "other"), 1);
        PlanNode plan = new PlanNode.Filter(ORDERS, List.of(call(Func.EQ, SqlType.BOOLEAN, col(1, SqlType.TEXT), lit("ten", SqlType.TEXT))));
        Changes result = OneShotRead.run(plan, (id, asOf) -> big, 1, EvalContext.defaults(), Cancellation.NONE);
        assertThat(result.size()).isEqualTo(10_000);
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < result.size(); i++) keys.add((Integer) result.row(i).get(0));
        assertThat(keys).allMatch(k -> k % 10 == 0).doesNotHaveDuplicates();
    }

    @Test
    void outerJoinNullKeysNeverMatch() {
        Map<Long, Changes> db = new HashMap<>();
        db.put(1L, new Changes().add(Row.of(null, "l"), 1));
        db.put(2L, new Changes().add(Row.of(null, "r"), 1));
        PlanNode full = new PlanNode.Join(ORDERS, NAMES, JoinKind.FULL, new int[] {0}, new int[] {0}, null);
        assertThat(TestPlans.read(full, db)).containsExactly(Row.of(null, null, null, "r"), Row.of(null, "l", null, null));
        PlanNode anti = new PlanNode.Join(ORDERS, NAMES, JoinKind.ANTI, new int[] {0}, new int[] {0}, null);
        assertThat(TestPlans.read(anti, db)).containsExactly(Row.of(null, "l"));
    }

    @Test
    void joinKeysOfDifferentNumericTypesMatchBySqlEquality() {
        PlanNode.Get ints = new PlanNode.Get(1, "i", List.of(SqlType.INTEGER));
        PlanNode.Get nums = new PlanNode.Get(2, "n", List.of(SqlType.NUMERIC));
        Map<Long, Changes> db = Map.of(
                1L, new Changes().add(Row.of(1), 1).add(Row.of(2), 1).add(Row.of(0), 1),
                2L, new Changes().add(Row.of(new BigDecimal("1.00")), 1).add(Row.of(new BigDecimal("2.5")), 1)
                        .add(Row.of(new BigDecimal("0.0")), 1));
        PlanNode join = new PlanNode.Join(ints, nums, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        assertThat(TestPlans.read(join, db)).extracting(r -> r.get(0)).containsExactlyInAnyOrder(0, 1);
    }
}
