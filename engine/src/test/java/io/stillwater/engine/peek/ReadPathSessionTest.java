package io.stillwater.engine.peek;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read paths end to end through a session: a real coordinator and tables, and a
 * single-threaded compute ({@link TestCompute}) whose exports the session reads, so
 * that compute can be made to lag (paused) to observe isolation and hydration waits.
 * Indexes are installed with {@link Coordinator#installDataflow} (CREATE INDEX belongs to
 * the DDL path).
 */
class ReadPathSessionTest {
    @TempDir
    Path dir;
    TestCompute compute;
    Coordinator coord;
    EngineSession s;
    EngineSession other;

    @BeforeEach
    void open() {
        compute = new TestCompute();
        coord = Coordinator.open(new EngineConfig(dir, false, 1), compute);
        s = session();
        other = session();
        q("CREATE TABLE t (a int, b text)");
        q("CREATE TABLE u (x int)");
        q("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (0, 'zero')");
        q("INSERT INTO u VALUES (1), (2)");
    }

    @AfterEach
    void close() {
        compute.resume();
        s.close();
        other.close();
        coord.close();
    }

    EngineSession session() {
        return new EngineSession(coord, new StatementPlanner(UtilityParser::parse), "materialize", "materialize", Map.of());
    }

    TableDef table(String name) { return coord.catalog().table(name).orElseThrow(); }

    /** Installs an index on t with key {@code key} (expressions over t's columns). */
    long indexOnT(Expr... key) {
        TableDef t = table("t");
        long id = coord.catalog().nextId() + 100 + compute.readers(t.id()).size();
        PlanNode get = new PlanNode.Get(t.id(), "t", List.of(SqlType.INTEGER, SqlType.TEXT));
        coord.installDataflow(new DataflowSpec(id, "t_idx", t.id(), get, new DataflowSpec.Export.Index(List.of(key))));
        return id;
    }

    static final Expr A = new Expr.Column(0, SqlType.INTEGER);

    List<List<String>> q(String sql) { return q(s, sql); }

    static List<List<String>> q(EngineSession session, String sql) {
        ExecutionResult r = session.execute(session.prepare(sql, List.of()), List.of());
        List<List<String>> out = new ArrayList<>();
        if (!(r instanceof ExecutionResult.Rows rows)) return out;
        for (Row row : rows.rows()) {
            List<String> vals = new ArrayList<>();
            for (int i = 0; i < row.arity(); i++) {
                Object v = row.get(i);
                vals.add(v == null ? null : DatumText.format(rows.columns().get(i).type(), v));
            }
            out.add(vals);
        }
        return out;
    }

    /** EXPLAIN's single value, as lines. */
    List<String> explain(String sql) {
        List<List<String>> rows = q("EXPLAIN " + sql);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get(0)).endsWith("\n");
        return List.of(rows.get(0).get(0).split("\n"));
    }

    static void assertState(SqlState state, Runnable r) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.state()).as(e.getMessage()).isEqualTo(state));
    }

    @Test
    void lookupThroughAnIndex() {
        long idx = indexOnT(A);
        assertThat(q("SELECT b FROM t WHERE a = 2 ORDER BY b")).containsExactly(List.of("deux"), List.of("two"));
        List<String> plan = explain("SELECT b FROM t WHERE a = 2");
        assertThat(plan.get(0)).isEqualTo("Explained Query (fast path lookup):");
        assertThat(plan).anyMatch(l -> l.contains("ReadIndex u" + idx + " on t (u" + table("t").id() + ") lookup=[(2)]"));
        assertThat(plan).contains("Used Indexes:", "  - u" + idx + " on t (u" + table("t").id() + ") key=(#0) (lookup)");
        // the index follows later writes
        q("INSERT INTO t VALUES (2, 'zwei')");
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("3"));
    }

    @Test
    void commonPredicateShapesAreLookups() {
        indexOnT(A);
        Expr b = new Expr.Column(1, SqlType.TEXT);
        indexOnT(b);
        indexOnT(A, b);
        for (String sql : List.of("SELECT * FROM t WHERE a = 2", "SELECT * FROM t WHERE 2 = a",
                "SELECT * FROM t WHERE a = 2::bigint", "SELECT * FROM t WHERE a IN (1, 2)",
                "SELECT * FROM t WHERE a = 1 OR a = 2", "SELECT * FROM t WHERE b = 'one'",
                "SELECT * FROM t WHERE a = 2 AND b = 'two'", "SELECT b FROM t WHERE a = 2 AND length(b) > 3",
                "SELECT upper(b) FROM (SELECT b, a + 0 AS c, a FROM t) s WHERE a = 1")) {
            List<String> plan = explain(sql);
            assertThat(plan.get(0)).as(sql + "\n" + String.join("\n", plan)).isEqualTo("Explained Query (fast path lookup):");
        }
        assertThat(q("SELECT b FROM t WHERE a IN (1, 2) ORDER BY b"))
                .containsExactly(List.of("deux"), List.of("one"), List.of("two"));
        assertThat(q("SELECT b FROM t WHERE a = 2 AND length(b) > 3")).containsExactly(List.of("deux"));
        var prepared = s.prepare("SELECT b FROM t WHERE a = $1 ORDER BY b", List.of());
        var rows = (ExecutionResult.Rows) s.execute(prepared, List.of(2));
        assertThat(rows.rows()).containsExactly(Row.of("deux"), Row.of("two"));
        var explained = (ExecutionResult.Rows) s.execute(s.prepare("EXPLAIN SELECT b FROM t WHERE a = $1", List.of()), List.of(1));
        assertThat((String) explained.rows().get(0).get(0)).startsWith("Explained Query (fast path lookup):\n");
        assertThat(explained.columns().get(0).name()).isEqualTo("Optimized Plan");
    }

    @Test
    void explainText() {
        long idx = indexOnT(A);
        long t = table("t").id();
        long u = table("u").id();
        assertThat(explain("SELECT b, count(*) FROM t JOIN u ON a = x WHERE x > 0 GROUP BY b ORDER BY b LIMIT 3"))
                .containsExactly(
                        "Explained Query (peek dataflow):",
                        "  Finish order_by=[#0 asc nulls_last] limit=3 output=[#0, #1]",
                        "    Reduce group_by=[#0] aggregates=[count(*)]",
                        "      Project (#1)",
                        "        Join kind=inner on=(#0 = #2)",
                        "          ReadIndex u%d on t (u%d)".formatted(idx, t),
                        "          Filter (#0 > 0)",
                        "            ReadTable u (u%d)".formatted(u),
                        "",
                        "Used Indexes:",
                        "  - u%d on t (u%d) key=(#0) (import)".formatted(idx, t),
                        "Read From Tables:",
                        "  - u (u%d)".formatted(u));
        assertThat(explain("SELECT b FROM t WHERE a = 2")).containsExactly(
                "Explained Query (fast path lookup):",
                "  Project (#1)",
                "    Filter (#0 = 2)",
                "      ReadIndex u%d on t (u%d) lookup=[(2)]".formatted(idx, t),
                "",
                "Used Indexes:",
                "  - u%d on t (u%d) key=(#0) (lookup)".formatted(idx, t));
    }

    @Test
    void explainNamesEachPath() {
        assertThat(explain("SELECT 1").get(0)).isEqualTo("Explained Query (constant):");
        List<String> tableOnly = explain("SELECT * FROM u WHERE x = 1");
        assertThat(tableOnly.get(0)).isEqualTo("Explained Query (peek dataflow):");
        assertThat(tableOnly).contains("Read From Tables:", "  - u (u" + table("u").id() + ")");
        indexOnT(A);
        assertThat(explain("SELECT * FROM t WHERE b = 'one'").get(0)).isEqualTo("Explained Query (fast path walk):");
        List<String> join = explain("SELECT b FROM t JOIN u ON a = x");
        assertThat(join.get(0)).isEqualTo("Explained Query (peek dataflow):");
        assertThat(join).anyMatch(l -> l.contains("(import)"));
        assertThat(join).contains("  - u (u" + table("u").id() + ")");
        assertThat(q("EXPLAIN PLAN FOR SELECT 1").get(0).get(0)).startsWith("Explained Query (constant):\n");
        assertState(SqlState.FEATURE_NOT_SUPPORTED, () -> q("EXPLAIN ANALYZE SELECT 1"));
        assertState(SqlState.FEATURE_NOT_SUPPORTED, () -> q("EXPLAIN INSERT INTO u VALUES (1)"));
    }

    @Test
    void walkAndDataflowThroughAnIndexAgreeWithTheTable() {
        indexOnT(A);
        assertThat(q("SELECT a, b FROM t WHERE b LIKE '%o' ORDER BY b"))
                .containsExactly(List.of("2", "two"), List.of("0", "zero"));
        assertThat(q("SELECT b FROM t JOIN u ON a = x ORDER BY b"))
                .containsExactly(List.of("deux"), List.of("one"), List.of("two"));
    }

    @Test
    void strictSerializableReadWaitsForTheIndexToCatchUp() {
        indexOnT(A);
        compute.pause();
        q(other, "INSERT INTO t VALUES (2, 'zwei')"); // acknowledged; the index lags behind it
        q("SET statement_timeout = '100ms'");
        // The read must see the acknowledged write, so it waits for the index, and times out.
        assertState(SqlState.QUERY_CANCELED, () -> q("SELECT count(*) FROM t WHERE a = 2"));
        q("RESET statement_timeout");
        compute.resume();
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("3"));
        assertThat(compute.export(compute.readers(table("t").id()).get(0).exportId()).openSnapshots).hasValue(0);
    }

    @Test
    void serializableReadsTheFreshestCompleteTimeWithoutWaiting() {
        indexOnT(A);
        compute.pause();
        q(other, "INSERT INTO t VALUES (2, 'zwei')");
        q("SET transaction_isolation = 'serializable'");
        q("SET statement_timeout = '10s'");
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("2")); // not yet in the index
        // tables are always complete: a read of the table alone sees the write
        assertThat(q("SELECT count(*) FROM u")).containsExactly(List.of("2"));
        compute.resume();
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("3"));
    }

    @Test
    void readOfAHydratingIndexWaitsForHydration() {
        compute.pause();
        indexOnT(A);
        q("SET statement_timeout = '100ms'");
        assertState(SqlState.QUERY_CANCELED, () -> q("SELECT b FROM t WHERE a = 1"));
        q("SET transaction_isolation = 'serializable'"); // serializable waits for hydration too
        assertState(SqlState.QUERY_CANCELED, () -> q("SELECT b FROM t WHERE a = 1"));
        q("RESET statement_timeout");
        compute.resume();
        assertThat(q("SELECT b FROM t WHERE a = 1")).containsExactly(List.of("one"));
    }

    @Test
    void readOnlyTransactionReadsEveryStatementAtOneTimestamp() {
        indexOnT(A);
        q("BEGIN");
        assertThat(q("SELECT count(*) FROM u")).containsExactly(List.of("2")); // first read: a table
        q(other, "INSERT INTO t VALUES (2, 'zwei')");
        q(other, "INSERT INTO u VALUES (3)");
        // the index was pinned at the transaction's time: its later rows are not visible
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("2"));
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("4"));
        assertThat(q("SELECT count(*) FROM u")).containsExactly(List.of("2"));
        q("COMMIT");
        assertThat(q("SELECT count(*) FROM t WHERE a = 2")).containsExactly(List.of("3"));
        assertThat(q("SELECT count(*) FROM u")).containsExactly(List.of("3"));
        assertThat(compute.export(compute.readers(table("t").id()).get(0).exportId()).openSnapshots).hasValue(0);
    }

    @Test
    void errorsInAnIndexFailReadsUntilTheRowIsDeleted() {
        // an index on (10 / a): the row with a = 0 is an evaluation error in the index
        Expr tenOverA = new Expr.Call(Func.DIVIDE, List.of(new Expr.Literal(10, SqlType.INTEGER), A), SqlType.INTEGER);
        indexOnT(tenOverA);
        assertThat(explain("SELECT * FROM t").get(0)).isEqualTo("Explained Query (fast path walk):");
        assertState(SqlState.DIVISION_BY_ZERO, () -> q("SELECT * FROM t"));
        assertState(SqlState.DIVISION_BY_ZERO, () -> q("SELECT b FROM t WHERE 10 / a = 5"));
        assertState(SqlState.DIVISION_BY_ZERO, () -> q("SELECT b FROM t JOIN u ON a = x"));
        assertThatThrownBy(() -> q("SELECT * FROM t")).hasMessage("Evaluation error: division by zero");
        // writes read the table itself, so the offending row can be deleted
        q("DELETE FROM t WHERE a = 0");
        assertThat(q("SELECT b FROM t WHERE 10 / a = 5 ORDER BY b")).containsExactly(List.of("deux"), List.of("two"));
    }

    @Test
    void isolationSettings() {
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("strict serializable"));
        q("SET transaction_isolation = 'Read Committed'");
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("read committed"));
        q("SET TRANSACTION_ISOLATION TO 'STRICT SERIALIZABLE'");
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("strict serializable"));
        assertThatThrownBy(() -> q("SET transaction_isolation = 'snapshot'"))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
                    assertThat(e.getMessage()).isEqualTo("invalid value for parameter \"transaction_isolation\": \"snapshot\"");
                    assertThat(e.hint()).contains("strict serializable", "serializable");
                });
        q("BEGIN ISOLATION LEVEL SERIALIZABLE");
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("serializable"));
        q("COMMIT");
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("strict serializable"));
        assertThat(Isolation.of("read committed")).isEqualTo(Isolation.SERIALIZABLE);
        assertThat(Isolation.of("repeatable read")).isEqualTo(Isolation.SERIALIZABLE);
        assertThat(Isolation.of("strict serializable")).isEqualTo(Isolation.STRICT_SERIALIZABLE);
    }
}
