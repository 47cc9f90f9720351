package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.OneShotRead;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Subqueries under OR, NOT and CASE planned and run over small tables; each expected
 * result is PostgreSQL 15's for the same data. {@code u(a, x)} holds (1,'p'), (2,'q'),
 * (3,'r'); {@code kv} is empty.
 */
class SubqueryResultsTest extends PlannerFixture {
    private static final Map<Long, Changes> TABLES = Map.of(
            TestCatalog.U.id(), Changes.insertAll(List.of(Row.of(1, "p"), Row.of(2, "q"), Row.of(3, "r"))));

    private List<Row> run(String sql) {
        PlanNode body = query(sql).body();
        Changes c = OneShotRead.run(body, (id, asOf) -> TABLES.getOrDefault(id, Changes.empty()), 1,
                EvalContext.defaults(), Cancellation.NONE);
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) for (long j = 0; j < c.diff(i); j++) out.add(c.row(i));
        out.sort(null);
        return out;
    }

    @Test
    void emptyInSubqueryUnderOrKeepsTheOtherBranch() {
        assertThat(run("SELECT count(*) FROM u WHERE (a IN (SELECT a FROM u WHERE a > 100) AND false) OR a <= 2"))
                .containsExactly(Row.of(2L));
        assertThat(run("SELECT a FROM u WHERE a IN (SELECT value FROM kv) OR a = 3")).containsExactly(Row.of(3));
        assertThat(run("SELECT a FROM u WHERE a NOT IN (SELECT value FROM kv) OR a = 3"))
                .containsExactly(Row.of(1), Row.of(2), Row.of(3));
    }

    @Test
    void uncorrelatedExistsBesideACorrelatedSubquery() {
        assertThat(run("SELECT a FROM u o WHERE NOT EXISTS (SELECT 1 FROM u WHERE a >= 5) "
                + "OR o.a IN (SELECT i.a FROM u i WHERE i.a <= 2 AND i.x <> o.x)"))
                .containsExactly(Row.of(1), Row.of(2), Row.of(3));
        assertThat(run("SELECT a FROM u o WHERE EXISTS (SELECT 1 FROM kv) "
                + "OR o.a IN (SELECT i.a FROM u i WHERE i.x = o.x AND i.a > 2)"))
                .containsExactly(Row.of(3));
    }

    @Test
    void caseGuardedScalarSubqueryRunsOnlyWhereTheBranchIsTaken() {
        assertThat(run("SELECT CASE WHEN a > 1 THEN (SELECT 10 / (a - 1)) ELSE 0 END FROM u"))
                .containsExactly(Row.of(0), Row.of(5), Row.of(10));
    }
}
