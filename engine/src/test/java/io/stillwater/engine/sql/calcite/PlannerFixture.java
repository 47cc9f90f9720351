package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Shared planner and catalog for the planning tests, plus small plan-walking helpers. */
abstract class PlannerFixture {
    static final StatementPlanner PLANNER = new StatementPlanner(sql -> Optional.empty());
    final TestCatalog catalog = new TestCatalog();

    Statement plan(String sql, SqlType... hints) {
        return PLANNER.plan(sql, List.of(hints), catalog);
    }

    Statement.Query select(String sql, SqlType... hints) {
        Statement st = plan(sql, hints);
        assertThat(st).isInstanceOf(Statement.Query.class);
        return (Statement.Query) st;
    }

    QueryPlan query(String sql, SqlType... hints) { return select(sql, hints).plan(); }

    SqlException error(String sql, SqlType... hints) {
        SqlException e = catchThrowableOfType(SqlException.class, () -> plan(sql, hints));
        assertThat(e).as("expected an error for: %s", sql).isNotNull();
        assertThat(e.getMessage()).doesNotContain("org.apache").doesNotContain("Exception");
        return e;
    }

    /** All nodes of a plan, pre-order. */
    static List<PlanNode> nodes(PlanNode root) {
        List<PlanNode> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(PlanNode n, List<PlanNode> out) {
        out.add(n);
        switch (n) {
            case PlanNode.Project p -> collect(p.input(), out);
            case PlanNode.Filter f -> collect(f.input(), out);
            case PlanNode.Join j -> {
                collect(j.left(), out);
                collect(j.right(), out);
            }
            case PlanNode.Reduce r -> collect(r.input(), out);
            case PlanNode.Distinct d -> collect(d.input(), out);
            case PlanNode.Union u -> u.inputs().forEach(i -> collect(i, out));
            case PlanNode.Except e -> {
                collect(e.left(), out);
                collect(e.right(), out);
            }
            case PlanNode.Intersect i -> {
                collect(i.left(), out);
                collect(i.right(), out);
            }
            case PlanNode.TopK t -> collect(t.input(), out);
            case PlanNode.Window w -> collect(w.input(), out);
            case PlanNode.FlatMap f -> collect(f.input(), out);
            case PlanNode.Recursive r -> {
                collect(r.base(), out);
                collect(r.step(), out);
            }
            default -> { }
        }
    }

    static <T extends PlanNode> List<T> nodesOf(PlanNode root, Class<T> type) {
        return nodes(root).stream().filter(type::isInstance).map(type::cast).toList();
    }
}
