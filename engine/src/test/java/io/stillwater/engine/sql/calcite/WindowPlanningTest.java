package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowFrame;
import io.stillwater.engine.plan.WindowFunc;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Window functions plan into {@link PlanNode.Window} nodes with PostgreSQL's frames and errors. */
class WindowPlanningTest extends PlannerFixture {
    @Test
    void functionsSharingAWindowShareOneNodeAndDefaultFramesArePostgresqls() {
        QueryPlan q = query("SELECT a, row_number() OVER w, sum(d) OVER w, sum(d) OVER (PARTITION BY b) "
                + "FROM t WINDOW w AS (PARTITION BY b ORDER BY a DESC)");
        List<PlanNode.Window> windows = nodesOf(q.body(), PlanNode.Window.class);
        assertThat(windows).hasSize(2);
        PlanNode.Window ordered = windows.stream().filter(w -> !w.order().isEmpty()).findFirst().orElseThrow();
        assertThat(ordered.order()).containsExactly(new SortKey(0, true, true)); // DESC puts NULLs first
        // sum is Calcite's CASE WHEN count(d) > 0 THEN $sum0(d) END: two aggregates over the frame.
        assertThat(ordered.calls()).extracting(c -> c.func())
                .containsExactly(WindowFunc.ROW_NUMBER, WindowFunc.AGGREGATE, WindowFunc.AGGREGATE);
        assertThat(ordered.calls().get(1).frame()).isEqualTo(WindowFrame.DEFAULT_WITH_ORDER);
        PlanNode.Window whole = windows.stream().filter(w -> w.order().isEmpty()).findFirst().orElseThrow();
        assertThat(whole.calls().get(0).frame().start()).isEqualTo(WindowFrame.Bound.UNBOUNDED_PRECEDING);
        assertThat(whole.calls().get(0).frame().end()).isEqualTo(WindowFrame.Bound.UNBOUNDED_FOLLOWING);
        assertThat(q.columnTypes()).containsExactly(SqlType.INTEGER, SqlType.BIGINT, SqlType.NUMERIC, SqlType.NUMERIC);
        assertThat(q.columnNames()).containsExactly("a", "row_number", "sum", "sum");
    }

    @Test
    void explicitFramesAndExclusions() {
        QueryPlan q = query("SELECT first_value(b) OVER (ORDER BY a ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING "
                + "EXCLUDE CURRENT ROW) FROM t");
        WindowFrame f = nodesOf(q.body(), PlanNode.Window.class).get(0).calls().get(0).frame();
        assertThat(f.unit()).isEqualTo(WindowFrame.Unit.ROWS);
        assertThat(f.start()).isEqualTo(new WindowFrame.Bound(WindowFrame.BoundKind.PRECEDING, 2L));
        assertThat(f.end()).isEqualTo(new WindowFrame.Bound(WindowFrame.BoundKind.FOLLOWING, 1L));
        assertThat(f.exclusion()).isEqualTo(WindowFrame.Exclusion.CURRENT_ROW);
    }

    @Test
    void groupsFramesComeThroughTheirRespelling() {
        QueryPlan q = query("SELECT sum(a) OVER (ORDER BY b GROUPS BETWEEN 2 PRECEDING AND CURRENT ROW), "
                + "sum(a) OVER (ORDER BY b GROUPS UNBOUNDED PRECEDING), groups FROM (SELECT a, b, 1 AS groups FROM t) s");
        List<WindowFrame> frames = nodesOf(q.body(), PlanNode.Window.class).stream()
                .flatMap(w -> w.calls().stream()).map(c -> c.frame()).distinct().toList();
        assertThat(frames).contains(new WindowFrame(WindowFrame.Unit.GROUPS,
                new WindowFrame.Bound(WindowFrame.BoundKind.PRECEDING, 2L), WindowFrame.Bound.CURRENT_ROW,
                WindowFrame.Exclusion.NO_OTHERS));
        // Without offsets GROUPS and RANGE are the same frame.
        assertThat(frames).contains(WindowFrame.DEFAULT_WITH_ORDER);
        assertThat(q.columnNames()).containsExactly("sum", "sum", "groups");
    }

    @Test
    void rankingFunctionsNeedNoOrderBy() {
        QueryPlan q = query("SELECT rank() OVER (), ntile(2) OVER (PARTITION BY b), lag(a) OVER () FROM t");
        assertThat(nodesOf(q.body(), PlanNode.Window.class)).isNotEmpty();
    }

    @Test
    void windowFunctionsOverGroupsAndInOrderBy() {
        QueryPlan q = query("SELECT b, rank() OVER (ORDER BY count(*) DESC) FROM t GROUP BY b ORDER BY row_number() OVER (ORDER BY b)");
        assertThat(nodesOf(q.body(), PlanNode.Reduce.class)).hasSize(1);
        assertThat(nodesOf(q.body(), PlanNode.Window.class)).hasSize(2);
    }

    @Test
    void correlatedSubqueryWithLimitPlans() {
        // The decorrelator turns the LIMIT into a per-key row_number() filter: once 0A000.
        QueryPlan q = query("SELECT a, (SELECT u.b FROM t u WHERE u.a = t.a ORDER BY u.b LIMIT 1) FROM t");
        assertThat(q.columnNames()).containsExactly("a", "b");
    }

    @Test
    void misplacedWindowFunctionsAre42P20AsInPostgresql() {
        var where = error("SELECT a FROM t WHERE row_number() OVER () > 1");
        assertThat(where.state()).isEqualTo(SqlState.WINDOWING_ERROR);
        assertThat(where.getMessage()).isEqualTo("window functions are not allowed in WHERE");
        var groupBy = error("SELECT count(*) FROM t GROUP BY row_number() OVER ()");
        assertThat(groupBy.state()).isEqualTo(SqlState.WINDOWING_ERROR);
        assertThat(groupBy.getMessage()).isEqualTo("window functions are not allowed in GROUP BY");
    }

    @Test
    void unsupportedWindowShapesSayWhat() {
        var distinct = error("SELECT count(DISTINCT a) OVER () FROM t");
        assertThat(distinct.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        assertThat(distinct.getMessage()).isEqualTo("DISTINCT is not implemented for window functions");
        var negative = error("SELECT sum(a) OVER (ORDER BY a ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM t");
        assertThat(negative.state()).isEqualTo(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE);
        var rangeText = error("SELECT sum(a) OVER (ORDER BY b RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t");
        assertThat(rangeText.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
    }
}
