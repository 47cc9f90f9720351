package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.TestPlans.call;
import static io.stillwater.engine.dataflow.TestPlans.col;
import static io.stillwater.engine.dataflow.TestPlans.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Evaluation errors are data: a failing row goes to the error collection (and is
 * retracted from it when the row goes away) while the other rows flow on; a read fails
 * with the least error present.
 *
 * <p>Errors come from integer division by zero, compiled by {@link
 * TestPlans#compileWithArithmetic} (a test expression compiler handed to the builder), so
 * these tests do not depend on how far the built-in function library has got.
 */
class ErrorsAsDataTest {
    private static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.INTEGER);
    private static final PlanNode.Get T = new PlanNode.Get(7, "t", TYPES);
    /** a / b */
    private static final Expr QUOTIENT = call(Func.DIVIDE, SqlType.INTEGER, col(0, SqlType.INTEGER), col(1, SqlType.INTEGER));

    private static Dataflow build(PlanNode plan) {
        return new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE, TestPlans::compileWithArithmetic).build(plan);
    }

    private static Delta step(Dataflow df, long time, Changes t) { return df.step(time, Map.of(7L, t)); }

    @Test
    void failingRowGoesToTheErrorCollectionAndIsRetractedWithTheRow() {
        Dataflow df = build(new PlanNode.Project(T, List.of(QUOTIENT)));
        Delta first = step(df, 1, new Changes().add(Row.of(6, 3), 1).add(Row.of(1, 0), 1));
        assertThat(first.ok().consolidate().asList()).extracting(d -> d.row()).containsExactly(Row.of(2));
        assertThat(first.errors().consolidate().asList()).singleElement().satisfies(d -> {
            assertThat(d.diff()).isEqualTo(1);
            assertThat(d.row().get(0)).isEqualTo(new EvalError(SqlState.DIVISION_BY_ZERO, "division by zero"));
        });
        Delta second = step(df, 2, new Changes().add(Row.of(1, 0), -1));
        assertThat(second.ok().isEmpty()).isTrue();
        assertThat(second.errors().consolidate().asList()).singleElement().satisfies(d -> assertThat(d.diff()).isEqualTo(-1));
    }

    @Test
    void oneShotReadFailsWithTheLeastError() {
        // Two kinds of error: division by zero (message "division by zero") and a scalar
        // subquery with two rows ("more than one row ..."): "division..." sorts first.
        PlanNode quotients = new PlanNode.Project(T, List.of(QUOTIENT));
        PlanNode single = new PlanNode.Reduce(T, new int[0],
                List.of(new AggCall(AggFunc.SINGLE_VALUE, List.of(0), false, -1, List.of(), SqlType.INTEGER, "v")));
        PlanNode plan = new PlanNode.Union(List.of(quotients, single), true);
        Changes rows = new Changes().add(Row.of(1, 0), 1).add(Row.of(4, 2), 1);
        Dataflow df = build(plan);
        Delta d = df.step(5, Map.of(7L, rows));
        assertThatThrownBy(() -> OneShotRead.failOnErrors(d.errors()))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO);
                    assertThat(e.getMessage()).isEqualTo("Evaluation error: division by zero");
                });
    }

    @Test
    void oneShotReadThroughTheRealCompilerFailsOnAnEvaluationError() {
        // A cast the placeholder cast library rejects at evaluation time (0A000) and that
        // the finished one rejects too: text to integer of a non-number is 22P02.
        PlanNode.Get t = new PlanNode.Get(3, "t", List.of(SqlType.TEXT));
        PlanNode plan = new PlanNode.Project(t, List.of(new Expr.Cast(col(0, SqlType.TEXT), SqlType.INTEGER)));
        Map<Long, Changes> db = Map.of(3L, new Changes().add(Row.of("not a number"), 1));
        assertThatThrownBy(() -> TestPlans.read(plan, db))
                .isInstanceOfSatisfying(SqlException.class, e ->
                        assertThat(e.state()).isIn(SqlState.FEATURE_NOT_SUPPORTED, SqlState.INVALID_TEXT_REPRESENTATION));
        // Without rows there is nothing to fail on.
        assertThat(TestPlans.read(plan, Map.of())).isEmpty();
    }

    @Test
    void filterBeforeTheFailingExpressionAvoidsTheError() {
        PlanNode nonZero = new PlanNode.Filter(T, List.of(call(Func.NE, SqlType.BOOLEAN, col(1, SqlType.INTEGER), lit(0, SqlType.INTEGER))));
        Dataflow df = build(new PlanNode.Project(nonZero, List.of(QUOTIENT)));
        Delta d = step(df, 1, new Changes().add(Row.of(1, 0), 1).add(Row.of(8, 2), 2));
        assertThat(d.errors().isEmpty()).isTrue();
        assertThat(TestPlans.rows(d.ok().consolidate())).containsExactly(Row.of(4), Row.of(4));
    }

    @Test
    void joinResidualErrorsAreCountedPerPairAndRetracted() {
        PlanNode.Get u = new PlanNode.Get(8, "u", TYPES);
        // residual: (l.a / r.b) = 1
        Expr residual = call(Func.EQ, SqlType.BOOLEAN,
                call(Func.DIVIDE, SqlType.INTEGER, col(0, SqlType.INTEGER), col(3, SqlType.INTEGER)), lit(1, SqlType.INTEGER));
        Dataflow df = build(new PlanNode.Join(T, u, JoinKind.LEFT, new int[] {1}, new int[] {0}, residual));
        Map<Row, Long> ok = new HashMap<>(), errors = new HashMap<>();
        Delta d1 = df.step(1, Map.of(7L, new Changes().add(Row.of(5, 1), 1), 8L, new Changes().add(Row.of(1, 0), 2).add(Row.of(1, 5), 1)));
        Harness.accumulate(ok, d1.ok());
        Harness.accumulate(errors, d1.errors());
        assertThat(ok).containsExactly(Map.entry(Row.of(5, 1, 1, 5), 1L));
        assertThat(errors).containsExactly(Map.entry(Row.of(new EvalError(SqlState.DIVISION_BY_ZERO, "division by zero")), 2L));
        Delta d2 = df.step(2, Map.of(8L, new Changes().add(Row.of(1, 0), -2).add(Row.of(1, 5), -1)));
        Harness.accumulate(ok, d2.ok());
        Harness.accumulate(errors, d2.errors());
        assertThat(ok).containsExactly(Map.entry(Row.of(5, 1, null, null), 1L));
        assertThat(errors).isEmpty();
    }
}
