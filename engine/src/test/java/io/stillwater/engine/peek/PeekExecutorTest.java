package io.stillwater.engine.peek;

import static io.stillwater.engine.peek.PeekPlannerTest.A;
import static io.stillwater.engine.peek.PeekPlannerTest.B;
import static io.stillwater.engine.peek.PeekPlannerTest.C;
import static io.stillwater.engine.peek.PeekPlannerTest.GET_T;
import static io.stillwater.engine.peek.PeekPlannerTest.IDX_A;
import static io.stillwater.engine.peek.PeekPlannerTest.T;
import static io.stillwater.engine.peek.PeekPlannerTest.eq;
import static io.stillwater.engine.peek.PeekPlannerTest.filter;
import static io.stillwater.engine.peek.PeekPlannerTest.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeekExecutorTest {
    static final long ASOF = 10;

    final EvalContext ctx = EvalContext.defaults();
    final PeekExecutor executor = PeekExecutor.withoutEngine();

    static Changes rowsOf(Row... rows) {
        Changes c = new Changes();
        for (Row r : rows) c.add(r, 1);
        return c;
    }

    static TestExport export(Changes rows, Changes errors) {
        TestExport e = new TestExport(IDX_A, T, List.of(A));
        e.hydrate(ASOF, rows, errors);
        return e;
    }

    final TestExport idx = export(rowsOf(Row.of(1, "x", 10L), Row.of(2, "y", 20L), Row.of(2, "z", 30L), Row.of(3, "w", 0L)),
            new Changes());
    final PeekPlanner planner = new PeekPlanner(new TestCompute().add(idx), id -> false);

    /** Runs {@code body} the way a session does: plan, pin at ASOF, execute, close. */
    PeekExecutor.Result read(PeekPlanner p, PlanNode body, Cancellation cancel) {
        PeekPlan plan = p.plan(body, ctx);
        try (PeekInputs in = PeekInputs.at(ASOF)) {
            for (var e : plan.exports().entrySet()) in.addExport(e.getKey(), e.getValue().snapshot(ASOF));
            return executor.run(plan, in, ctx, cancel);
        }
    }

    static List<Row> sorted(Changes c) { return TestCompute.rows(c).stream().sorted().toList(); }

    @Test
    void lookupReadsOnlyTheKeyAndAppliesTheChain() {
        PlanNode body = new PlanNode.Project(filter(GET_T, eq(A, lit(2, SqlType.INTEGER))), List.of(B));
        assertThat(planner.plan(body, ctx)).isInstanceOf(PeekPlan.FastPathLookup.class);
        PeekExecutor.Result r = read(planner, body, Cancellation.NONE);
        assertThat(sorted(r.rows())).containsExactly(Row.of("y"), Row.of("z"));
        assertThat(r.cursorPositions()).isEqualTo(2); // rows under the key, nothing else
        assertThat(idx.openSnapshots).hasValue(0);
    }

    @Test
    void walkAppliesTheFusedFilterToEveryRowAndCountsPositions() {
        Expr gt = new Expr.Call(Func.GT, List.of(C, lit(15L, SqlType.BIGINT)), SqlType.BOOLEAN);
        PlanNode body = new PlanNode.Project(filter(GET_T, gt), List.of(A, C));
        assertThat(planner.plan(body, ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
        PeekExecutor.Result r = read(planner, body, Cancellation.NONE);
        assertThat(sorted(r.rows())).containsExactly(Row.of(2, 20L), Row.of(2, 30L));
        assertThat(r.cursorPositions()).isEqualTo(4); // every row visited, not rows returned
    }

    @Test
    void exportErrorsFailEveryPath() {
        EvalError div = new EvalError(SqlState.DIVISION_BY_ZERO, "division by zero");
        EvalError ovf = new EvalError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        TestExport bad = export(rowsOf(Row.of(1, "x", 10L)), rowsOf(Row.of(div), Row.of(ovf)));
        PeekPlanner p = new PeekPlanner(new TestCompute().add(bad), id -> false);
        PlanNode lookup = filter(GET_T, eq(A, lit(42, SqlType.INTEGER))); // the error is in another row
        PlanNode walk = GET_T;
        PlanNode dataflow = new PlanNode.Reduce(GET_T, new int[0],
                List.of(new AggCall(AggFunc.COUNT_STAR, List.of(), false, -1, List.of(), SqlType.BIGINT, "count")));
        assertThat(p.plan(lookup, ctx)).isInstanceOf(PeekPlan.FastPathLookup.class);
        assertThat(p.plan(walk, ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
        assertThat(p.plan(dataflow, ctx)).isInstanceOf(PeekPlan.PeekDataflow.class);
        for (PlanNode body : List.of(lookup, walk, dataflow)) {
            assertThatThrownBy(() -> read(p, body, Cancellation.NONE))
                    .isInstanceOfSatisfying(SqlException.class, e -> {
                        // the least error, whatever the order they were found in
                        assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO);
                        assertThat(e.getMessage()).isEqualTo("Evaluation error: division by zero");
                    });
        }
        assertThat(bad.openSnapshots).hasValue(0);
    }

    @Test
    void retractedErrorsNoLongerFail() {
        EvalError div = new EvalError(SqlState.DIVISION_BY_ZERO, "division by zero");
        TestExport e = new TestExport(IDX_A, T, List.of(A));
        e.hydrate(ASOF - 1, rowsOf(Row.of(1, "x", 10L)), rowsOf(Row.of(div)));
        e.step(ASOF, new Changes(), new Changes().add(Row.of(div), -1));
        PeekPlanner p = new PeekPlanner(new TestCompute().add(e), id -> false);
        assertThat(sorted(read(p, GET_T, Cancellation.NONE).rows())).containsExactly(Row.of(1, "x", 10L));
    }

    @Test
    void errorsOfTheReadsOwnExpressionsAreDataToo() {
        // SELECT 100 / (c - 20) FROM t: fails on the row with c = 20, whichever row comes first
        Expr div = new Expr.Call(Func.DIVIDE, List.of(lit(100L, SqlType.BIGINT),
                new Expr.Call(Func.MINUS, List.of(C, lit(20L, SqlType.BIGINT)), SqlType.BIGINT)), SqlType.BIGINT);
        PlanNode body = new PlanNode.Project(GET_T, List.of(div));
        assertThatThrownBy(() -> read(planner, body, Cancellation.NONE))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO));
        // the lookup that never reaches that row succeeds
        PlanNode lookup = new PlanNode.Project(filter(GET_T, eq(A, lit(1, SqlType.INTEGER))), List.of(div));
        assertThat(sorted(read(planner, lookup, Cancellation.NONE).rows())).containsExactly(Row.of(-10L));
    }

    @Test
    void cancelledWalkStopsAndReleasesItsSnapshot() {
        Changes many = new Changes();
        for (int i = 0; i < 10_000; i++) many.add(Row.of(i, "r", (long) i), 1);
        TestExport big = export(many, new Changes());
        PeekPlanner p = new PeekPlanner(new TestCompute().add(big), id -> false);
        AtomicInteger checks = new AtomicInteger();
        Cancellation cancelAfterAWhile = () -> {
            if (checks.incrementAndGet() > 5) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        };
        assertThatThrownBy(() -> read(p, GET_T, cancelAfterAWhile))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED));
        assertThat(checks.get()).isLessThan(50); // stopped long before visiting 10,000 rows (checks every 64)
        assertThat(big.openSnapshots).hasValue(0);
    }

    @Test
    void peekDataflowImportsTheArrangementInsteadOfRecomputing() {
        // count(*) over the indexed collection reads the export's rows at asOf
        PlanNode count = new PlanNode.Reduce(GET_T, new int[0],
                List.of(new AggCall(AggFunc.COUNT_STAR, List.of(), false, -1, List.of(), SqlType.BIGINT, "count")));
        assertThat(sorted(read(planner, count, Cancellation.NONE).rows())).containsExactly(Row.of(4L));
    }

    @Test
    void constantsNeedNoInputs() {
        PlanNode body = new PlanNode.Constant(List.of(Row.of(1), Row.of(2)), List.of(SqlType.INTEGER));
        PeekPlan plan = planner.plan(body, ctx);
        assertThat(sorted(executor.run(plan, null, ctx, Cancellation.NONE).rows())).containsExactly(Row.of(1), Row.of(2));
    }
}
