package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.sql.planner.StatementPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Materialized views' contents stored with the checkpoint: after a restart they answer
 * reads before the view's dataflow exists ({@link GatedCompute} holds every dataflow back
 * until released), equal to the view's query run as a one-shot SELECT, and they stop
 * answering once a write touches one of the view's inputs (directly or through another
 * view); the dataflow answers from then on.
 */
class MaterializedViewCheckpointTest {
    @TempDir
    Path dir;

    /** Automatic checkpoints off, the shutdown one too: only CHECKPOINT writes one, so the log after it replays. */
    private static final Map<String, String> MANUAL = Map.of("checkpoint_interval", "0", "checkpoint_wal_size", "0");

    /** Each materialized view and the same query as a one-shot SELECT. */
    private static final Map<String, String> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put("joined", "SELECT a.k, a.v, b.w FROM a JOIN b ON a.k = b.k");
        VIEWS.put("per_g", "SELECT g, count(*) AS n, sum(v) AS s, max(v) AS hi FROM a GROUP BY g");
        VIEWS.put("big", "SELECT k, v FROM a WHERE v > 50");
        VIEWS.put("none", "SELECT k FROM a WHERE v < 0");
        VIEWS.put("on_b", "SELECT w, count(*) AS n FROM b GROUP BY w");
        VIEWS.put("over_mv", "SELECT g, n * 2 AS n2 FROM per_g"); // an input through another view
    }

    private final List<GatedCompute> gates = new ArrayList<>();

    private Coordinator open(boolean gateOpen) {
        return Coordinator.open(new EngineConfig(dir, false, 1, MANUAL), spec -> {
            GatedCompute g = new GatedCompute(new ComputeReplica(spec.workers()), gateOpen);
            gates.add(g);
            return g;
        });
    }

    private static EngineSession session(Coordinator c) {
        return new EngineSession(c, new StatementPlanner(UtilityParser::parse), "mz_system", "materialize", Map.of());
    }

    /** The rows of {@code sql}, as sorted text. */
    private static List<String> rows(EngineSession s, String sql) {
        ExecutionResult r = s.execute(sql);
        assertThat(r).isInstanceOf(ExecutionResult.Rows.class);
        List<String> out = new ArrayList<>();
        for (Row row : ((ExecutionResult.Rows) r).rows()) out.add(row.toString());
        out.sort(null);
        return out;
    }

    private static void create(Coordinator c, long seed) {
        Random rnd = new Random(seed);
        try (EngineSession s = session(c)) {
            s.execute("CREATE TABLE a (k int, v int, g int)");
            s.execute("CREATE TABLE b (k int, w text)");
            s.execute("CREATE TABLE unrelated (x int)");
            for (var v : VIEWS.entrySet()) s.execute("CREATE MATERIALIZED VIEW " + v.getKey() + " AS " + v.getValue());
            for (int round = 0; round < 3; round++) {
                StringBuilder ins = new StringBuilder("INSERT INTO a VALUES ");
                for (int i = 0; i < 40; i++) {
                    ins.append(i == 0 ? "" : ", ").append('(').append(rnd.nextInt(30)).append(", ").append(rnd.nextInt(100))
                            .append(", ").append(rnd.nextInt(4)).append(')');
                }
                s.execute(ins.toString());
                s.execute("INSERT INTO b VALUES (" + rnd.nextInt(30) + ", 'w" + rnd.nextInt(3) + "'), (" + rnd.nextInt(30)
                        + ", 'w" + rnd.nextInt(3) + "')");
                s.execute("DELETE FROM a WHERE v % 7 = " + rnd.nextInt(7));
                s.execute("UPDATE a SET v = v + 1 WHERE k % 5 = " + rnd.nextInt(5));
            }
            s.execute("INSERT INTO unrelated VALUES (1)");
            // Every view's dataflow at the latest time, so the checkpoint finds them there.
            for (String v : VIEWS.keySet()) rows(s, "SELECT * FROM " + v);
            s.execute("CHECKPOINT");
        }
        Checkpointer.Result last = c.checkpointer().last();
        assertThat(last.viewsStored()).isEqualTo(VIEWS.size());
        assertThat(last.viewsSkipped()).isZero();
    }

    /** Every view's rows and its query's, by view name. */
    private static Map<String, List<List<String>>> both(EngineSession s) {
        Map<String, List<List<String>>> out = new LinkedHashMap<>();
        for (var v : VIEWS.entrySet()) out.put(v.getKey(), List.of(rows(s, "SELECT * FROM " + v.getKey()), rows(s, v.getValue())));
        return out;
    }

    private static void assertViewsEqualTheirQueries(EngineSession s) {
        both(s).forEach((name, pair) -> assertThat(pair.get(0)).as(name).isEqualTo(pair.get(1)));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void storedContentsAnswerBeforeHydrationAndEqualTheRecomputedResult(long seed) {
        try (Coordinator c = open(true)) {
            create(c, seed);
        }
        try (Coordinator c = open(false); EngineSession s = session(c)) {
            assertThat(gates).hasSize(2);
            // No dataflow exists: every view is answered from its stored contents.
            assertViewsEqualTheirQueries(s);
            gates.get(1).release();
            assertViewsEqualTheirQueries(s);
            s.execute("INSERT INTO a VALUES (1, 99, 1)");
            assertViewsEqualTheirQueries(s);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INSERT INTO unrelated VALUES (2)", "INSERT INTO b VALUES (3, 'w9')", "DELETE FROM a WHERE g = 1"})
    void aWriteAfterTheCheckpointStopsTheStoredContentsOfTheViewsReadingItOnly(String write) {
        try (Coordinator c = open(true)) {
            create(c, 7);
            try (EngineSession s = session(c)) {
                s.execute(write); // in the log after the checkpoint: replayed at restart
            }
        }
        try (Coordinator c = open(false); EngineSession s = session(c)) {
            for (var v : VIEWS.entrySet()) {
                boolean touched = write.contains(" a ") && !v.getKey().equals("on_b")
                        || write.contains(" b ") && (v.getKey().equals("joined") || v.getKey().equals("on_b"));
                if (touched) {
                    // Stale stored contents never answer; without a dataflow the read is refused.
                    assertThatThrownBy(() -> rows(s, "SELECT * FROM " + v.getKey())).as(v.getKey())
                            .isInstanceOfSatisfying(SqlException.class,
                                    e -> assertThat(e.state()).isEqualTo(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE));
                } else {
                    assertThat(rows(s, "SELECT * FROM " + v.getKey())).as(v.getKey()).isEqualTo(rows(s, v.getValue()));
                }
            }
            gates.get(1).release();
            assertViewsEqualTheirQueries(s);
        }
    }

    @Test
    void aWriteToAnInputAfterRestartStopsTheStoredContentsAtItsTime() {
        try (Coordinator c = open(true)) {
            create(c, 11);
        }
        try (Coordinator c = open(false); EngineSession s = session(c)) {
            List<String> before = rows(s, "SELECT * FROM per_g");
            assertThat(before).isEqualTo(rows(s, VIEWS.get("per_g")));
            s.execute("INSERT INTO a VALUES (1000, 1, 3)");
            assertThatThrownBy(() -> rows(s, "SELECT * FROM over_mv")).isInstanceOfSatisfying(SqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE));
            assertThat(rows(s, "SELECT * FROM on_b")).isEqualTo(rows(s, VIEWS.get("on_b"))); // b untouched
            gates.get(1).release();
            assertViewsEqualTheirQueries(s);
            assertThat(rows(s, "SELECT * FROM per_g")).isNotEqualTo(before);
        }
    }

    @Test
    void aCheckpointTakenBeforeHydrationKeepsTheStillValidStoredContents() {
        try (Coordinator c = open(true)) {
            create(c, 5);
        }
        try (Coordinator c = open(false); EngineSession s = session(c)) {
            s.execute("INSERT INTO b VALUES (4, 'w1')");
            s.execute("CHECKPOINT"); // no dataflow runs: the views not reading b keep their stored rows
            Checkpointer.Result r = c.checkpointer().last();
            assertThat(r.viewsStored()).isEqualTo(VIEWS.size() - 2);
            assertThat(r.viewsSkipped()).isEqualTo(2);
        }
        try (Coordinator c = open(false); EngineSession s = session(c)) {
            assertThat(rows(s, "SELECT * FROM per_g")).isEqualTo(rows(s, VIEWS.get("per_g")));
            assertThatThrownBy(() -> rows(s, "SELECT * FROM joined")).isInstanceOf(SqlException.class);
            gates.get(gates.size() - 1).release();
            assertViewsEqualTheirQueries(s);
        }
    }
}
