package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.error.SqlException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Restart with a real two-worker replica: the catalog, indexes and materialized views come
 * back (rebuilt from the durable tables) and serve exactly what they served before, on the
 * same read paths; errors as data come back too.
 */
class MaintainedRestartTest extends SessionTestBase {
    private static final List<String> READS = List.of(
            "SELECT k, v FROM t WHERE k = 8",                           // fast-path lookup on t_k_idx
            "SELECT k, v FROM t WHERE v > 40 ORDER BY k",               // walk of an index
            "SELECT g, n, lo, hi FROM per_group ORDER BY g",            // materialized view
            "SELECT g, total FROM totals WHERE g = 2",                  // indexed view, lookup
            "SELECT t.k, u.w FROM t JOIN u ON t.k = u.k ORDER BY 1, 2", // peek dataflow importing indexes
            "SELECT g, best FROM top2 ORDER BY g, best");               // top-k MV under deletes

    @Override
    @BeforeEach
    void open() {
        engine = Engine.open(new EngineConfig(dir, false, 2));
        s = engine.connect("materialize", "materialize", Map.of());
    }

    @Test
    void indexesAndMaterializedViewsServeTheSameResultsAfterARestart() {
        s.execute("CREATE TABLE t (k int, v int, g int)");
        s.execute("CREATE TABLE u (k int, w text)");
        s.execute("CREATE INDEX t_k_idx ON t (k)");
        s.execute("CREATE DEFAULT INDEX ON u");
        s.execute("CREATE VIEW totals AS SELECT g, sum(v) AS total FROM t GROUP BY g");
        s.execute("CREATE INDEX totals_g_idx ON totals (g)");
        s.execute("CREATE MATERIALIZED VIEW per_group AS SELECT g, count(*) AS n, min(v) AS lo, max(v) AS hi FROM t GROUP BY g");
        s.execute("CREATE MATERIALIZED VIEW top2 AS SELECT g, v AS best FROM t ORDER BY v DESC LIMIT 3");
        s.execute("INSERT INTO t SELECT x, x * 7 % 50, x % 3 FROM generate_series(1, 60) AS x");
        s.execute("INSERT INTO u VALUES (7, 'seven'), (8, 'eight'), (70, 'none')");
        s.execute("DELETE FROM t WHERE v > 45");          // retracts maxima and top-k rows
        s.execute("UPDATE t SET v = v + 1 WHERE k % 5 = 0");

        Map<String, List<List<String>>> before = results();
        Map<String, List<List<String>>> explained = explains();
        assertThat(before.get(READS.get(0))).isNotEmpty();
        assertThat(before.get(READS.get(2))).hasSize(3);

        reopen();

        assertThat(results()).isEqualTo(before);
        assertThat(explains()).isEqualTo(explained);
        s.execute("INSERT INTO t VALUES (8, 1, 2)");      // and they keep being maintained
        assertThat(q(READS.get(0))).hasSize(before.get(READS.get(0)).size() + 1);
    }

    @Test
    void anErrorInAMaterializedViewIsStillThereAfterARestart() {
        s.execute("CREATE TABLE d (x int)");
        s.execute("CREATE MATERIALIZED VIEW inv AS SELECT 100 / x AS y FROM d");
        s.execute("INSERT INTO d VALUES (4), (0)");
        assertThatThrownBy(() -> q("SELECT * FROM inv")).isInstanceOf(SqlException.class)
                .hasMessage("Evaluation error: division by zero");

        reopen();

        assertThatThrownBy(() -> q("SELECT * FROM inv")).isInstanceOf(SqlException.class)
                .hasMessage("Evaluation error: division by zero");
        s.execute("DELETE FROM d WHERE x = 0");
        assertThat(q("SELECT * FROM inv")).containsExactly(List.of("25"));
    }

    private Map<String, List<List<String>>> results() {
        Map<String, List<List<String>>> out = new LinkedHashMap<>();
        for (String sql : READS) out.put(sql, q(sql));
        return out;
    }

    private Map<String, List<List<String>>> explains() {
        Map<String, List<List<String>>> out = new LinkedHashMap<>();
        for (String sql : READS) out.put(sql, q("EXPLAIN " + sql));
        return out;
    }
}
