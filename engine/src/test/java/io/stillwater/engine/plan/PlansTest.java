package io.stillwater.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.SqlType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlansTest {
    private static final PlanNode.Get GET = new PlanNode.Get(1, "t", List.of(SqlType.INTEGER, SqlType.TEXT));

    private static boolean hasParam(Object o) { return o.toString().contains("Param["); }

    @Test
    void bindsParamsEverywhere() {
        Expr p0 = new Expr.Param(0, SqlType.INTEGER);
        Expr p1 = new Expr.Param(1, SqlType.TEXT);
        PlanNode filter = new PlanNode.Filter(GET, List.of(new Expr.Call(Func.EQ,
                List.of(new Expr.Column(0, SqlType.INTEGER), p0), SqlType.BOOLEAN)));
        PlanNode project = new PlanNode.Project(filter, List.of(new Expr.Case(
                List.of(new Expr.Call(Func.IS_NULL, List.of(p1), SqlType.BOOLEAN)), List.of(new Expr.Cast(p0, SqlType.BIGINT)),
                new Expr.Literal(1L, SqlType.BIGINT), SqlType.BIGINT)));
        PlanNode join = new PlanNode.Join(project, new PlanNode.GenerateSeries(List.of(
                new Expr.Literal(1, SqlType.INTEGER), p0), SqlType.INTEGER), JoinKind.INNER, new int[0], new int[0],
                new Expr.Call(Func.NE, List.of(new Expr.Column(0, SqlType.BIGINT), p1), SqlType.BOOLEAN));
        PlanNode union = new PlanNode.Union(List.of(new PlanNode.TopK(join, new int[0], List.of(), 1, 0),
                new PlanNode.Distinct(new PlanNode.Except(join, join, false))), true);
        QueryPlan plan = new QueryPlan(union, List.of(), -1, 0, List.of("x", "y"), union.types());
        assertThat(hasParam(plan)).isTrue();

        QueryPlan bound = Plans.bindParams(plan, List.of(42, "hello"));
        assertThat(hasParam(bound)).isFalse();
        assertThat(bound.toString()).contains("Literal[value=42, type=integer]").contains("Literal[value=hello, type=text]");
        assertThat(bound.columnNames()).containsExactly("x", "y");
        assertThat(bound.body().types()).isEqualTo(plan.body().types());
    }

    @Test
    void nullParamBecomesTypedNullLiteral() {
        Expr e = Plans.bind(new Expr.Param(0, SqlType.DATE), Arrays.asList((Object) null));
        assertThat(e).isEqualTo(new Expr.Literal(null, SqlType.DATE));
    }

    @Test
    void missingParamIsAnError() {
        assertThatThrownBy(() -> Plans.bind(new Expr.Param(2, SqlType.INTEGER), List.of(1)))
                .isInstanceOf(SqlException.class).hasMessage("there is no parameter $3");
    }
}
