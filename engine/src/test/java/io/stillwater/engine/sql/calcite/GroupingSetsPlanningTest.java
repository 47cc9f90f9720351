package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GROUPING SETS / ROLLUP / CUBE plan as a UNION ALL of plain Reduces over one shared input. */
class GroupingSetsPlanningTest extends PlannerFixture {

    @Test
    void rollupIsAUnionOfOneReducePerSetOverOneInput() {
        QueryPlan q = query("SELECT a, b, count(*), grouping(a, b) FROM t GROUP BY ROLLUP (a, b)");
        assertThat(q.columnNames()).containsExactly("a", "b", "count", "grouping");
        var union = nodesOf(q.body(), PlanNode.Union.class).get(0);
        assertThat(union.all()).isTrue();
        assertThat(union.inputs()).hasSize(3);
        List<PlanNode.Reduce> reduces = nodesOf(q.body(), PlanNode.Reduce.class);
        assertThat(reduces).extracting(r -> r.groupKeys().length).containsExactlyInAnyOrder(2, 1, 0);
        // One input object: the dataflow builds it once for every branch.
        assertThat(reduces).allSatisfy(r -> assertThat(r.input()).isSameAs(reduces.get(0).input()));
        // The grand-total branch: NULL keys and GROUPING(a, b) = 3 (both bits set, a most significant).
        var total = union.inputs().stream().map(PlanNode.Project.class::cast)
                .filter(p -> ((PlanNode.Reduce) p.input()).groupKeys().length == 0).findFirst().orElseThrow();
        assertThat(total.exprs().get(0)).isInstanceOf(Expr.Literal.class);
        assertThat(((Expr.Literal) total.exprs().get(0)).value()).isNull();
        assertThat(((Number) ((Expr.Literal) total.exprs().get(3)).value()).longValue()).isEqualTo(3);
        var byA = union.inputs().stream().map(PlanNode.Project.class::cast)
                .filter(p -> ((PlanNode.Reduce) p.input()).groupKeys().length == 1).findFirst().orElseThrow();
        assertThat(((Number) ((Expr.Literal) byA.exprs().get(3)).value()).longValue()).isEqualTo(1);
    }

    @Test
    void cubeHasOneBranchPerSubsetAndKeepsColumnTypes() {
        QueryPlan q = query("SELECT a, b, sum(d) FROM t GROUP BY CUBE (a, b)");
        assertThat(q.columnTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT, SqlType.NUMERIC);
        assertThat(nodesOf(q.body(), PlanNode.Reduce.class)).hasSize(4);
    }
}
