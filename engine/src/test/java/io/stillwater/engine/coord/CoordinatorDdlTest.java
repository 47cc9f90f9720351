package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE/DROP INDEX and MATERIALIZED VIEW through a session, with a compute controller
 * that records what the coordinator asks of it: the dataflow specs, their order at
 * restart, drops, and that nothing half-created survives a failure.
 */
class CoordinatorDdlTest {
    @TempDir
    Path dir;
    Coordinator coord;
    RecordingCompute compute;
    EngineSession session;

    void open(ComputeController c) {
        coord = Coordinator.open(new EngineConfig(dir, false, 1), c);
        session = new EngineSession(coord, new StatementPlanner(UtilityParser::parse), "materialize", "materialize", Map.of());
    }

    void open() {
        compute = new RecordingCompute();
        open(compute);
    }

    void reopen() {
        close();
        open();
    }

    @AfterEach
    void close() {
        if (session != null) session.close();
        if (coord != null) coord.close();
        session = null;
        coord = null;
    }

    ExecutionResult run(String sql) { return session.execute(sql); }

    List<List<String>> q(String sql) {
        ExecutionResult.Rows rows = (ExecutionResult.Rows) run(sql);
        List<List<String>> out = new ArrayList<>();
        for (Row r : rows.rows()) {
            List<String> vals = new ArrayList<>();
            for (int i = 0; i < r.arity(); i++) {
                SqlType t = rows.columns().get(i).type();
                vals.add(r.get(i) == null ? null : DatumText.format(t, r.get(i)));
            }
            out.add(vals);
        }
        out.sort((a, b) -> a.toString().compareTo(b.toString()));
        return out;
    }

    static SqlException sqlError(Runnable r) {
        try {
            r.run();
        } catch (SqlException e) {
            return e;
        }
        throw new AssertionError("no error");
    }

    long id(String name) { return coord.catalog().idOf(name); }

    DataflowSpec spec(String name) {
        long id = id(name);
        return compute.created.stream().filter(s -> s.exportId() == id).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void indexOnATableArrangesItsRowsByThePlannedKey() {
        open();
        run("CREATE TABLE t (a int, b text)");
        run("CREATE INDEX ON t (b)");
        run("CREATE DEFAULT INDEX ON t");
        run("CREATE INDEX ON t (a + 1)");
        run("CREATE INDEX ON t (b)");
        run("CREATE INDEX named IN CLUSTER default ON t USING arrangement (b, a)");

        long t = id("t");
        DataflowSpec byB = spec("t_b_idx");
        assertThat(byB.collectionId()).isEqualTo(t);
        assertThat(byB.plan()).isEqualTo(new PlanNode.Get(t, "t", List.of(SqlType.INTEGER, SqlType.TEXT)));
        assertThat(byB.export()).isEqualTo(new DataflowSpec.Export.Index(List.of(new Expr.Column(1, SqlType.TEXT))));
        assertThat(((DataflowSpec.Export.Index) spec("t_primary_idx").export()).key())
                .containsExactly(new Expr.Column(0, SqlType.INTEGER), new Expr.Column(1, SqlType.TEXT));
        assertThat(((DataflowSpec.Export.Index) spec("t_expr_idx").export()).key()).singleElement()
                .isInstanceOf(Expr.Call.class);
        assertThat(coord.catalog().index("t_b_idx1")).isPresent();
        assertThat(coord.catalog().index("named").orElseThrow().keySql()).containsExactly("b", "a");

        assertThat(q("SHOW INDEXES")).containsExactly(
                List.of("named", "t", "default", "{b,a}"),
                List.of("t_b_idx", "t", "default", "{b}"),
                List.of("t_b_idx1", "t", "default", "{b}"),
                List.of("t_expr_idx", "t", "default", "{a + 1}"),
                List.of("t_primary_idx", "t", "default", "{a,b}"));
        assertThat(q("SHOW INDEXES ON t IN CLUSTER default")).hasSize(5);
        assertThat(sqlError(() -> q("SHOW INDEXES IN CLUSTER other")).state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        // the ids are Materialize-style strings
        assertThat(q("SELECT name, on_id, cluster_id FROM mz_catalog.mz_indexes WHERE name = 't_b_idx'"))
                .containsExactly(List.of("t_b_idx", "u" + t, "u1"));
    }

    @Test
    void anIndexedViewIsReadFromItsIndexWhileTheIndexItselfExpandsTheView() {
        open();
        run("CREATE TABLE t (a int, b int)");
        run("CREATE VIEW v AS SELECT a, count(*) AS n FROM t GROUP BY a");
        run("CREATE MATERIALIZED VIEW before_index AS SELECT n FROM v");
        run("CREATE INDEX vi ON v (a)");
        run("CREATE MATERIALIZED VIEW m AS SELECT n FROM v WHERE a > 0");
        run("CREATE DEFAULT INDEX ON m");

        long t = id("t"), v = id("v"), m = id("m");
        DataflowSpec vi = spec("vi");
        assertThat(vi.collectionId()).isEqualTo(v);
        assertThat(vi.plan()).isInstanceOf(PlanNode.Reduce.class);
        assertThat(PlanInputs.objectIds(vi.plan())).containsExactly(t);
        assertThat(PlanInputs.objectIds(spec("before_index").plan())).containsExactly(t);

        DataflowSpec mv = spec("m");
        assertThat(mv.collectionId()).isEqualTo(m);
        assertThat(mv.export()).isEqualTo(new DataflowSpec.Export.MaterializedView());
        assertThat(PlanInputs.objectIds(mv.plan())).containsExactly(v);
        assertThat(spec("m_primary_idx").plan()).isEqualTo(new PlanNode.Get(m, "m", List.of(SqlType.BIGINT)));

        // Queries read the indexed view and the materialized view as collections.
        var planner = new StatementPlanner(UtilityParser::parse);
        var query = (Statement.Query) planner.plan("SELECT * FROM v", List.of(), coord.catalog());
        assertThat(query.plan().body()).isEqualTo(new PlanNode.Get(v, "v", List.of(SqlType.INTEGER, SqlType.BIGINT)));
        var readM = (Statement.Query) planner.plan("SELECT n FROM m", List.of(), coord.catalog());
        assertThat(PlanInputs.objectIds(readM.plan().body())).containsExactly(m);
        assertThat(q("SHOW MATERIALIZED VIEWS")).containsExactly(List.of("before_index", "default"), List.of("m", "default"));
        assertThat(q("SELECT name, cluster_id FROM mz_catalog.mz_materialized_views"))
                .containsExactly(List.of("before_index", "u1"), List.of("m", "u1"));
    }

    @Test
    void restartInstallsEveryDataflowInIdOrderAsItWasPlanned() {
        open();
        run("CREATE TABLE t (a int, b int)");
        run("CREATE VIEW v AS SELECT a, sum(b) AS s FROM t GROUP BY a");
        run("CREATE MATERIALIZED VIEW m1 AS SELECT s FROM v");
        run("CREATE INDEX vi ON v (a)");
        run("CREATE MATERIALIZED VIEW m2 AS SELECT a FROM v");
        run("CREATE INDEX m1i ON m1 (s)");
        run("CREATE INDEX ti ON t (b)");
        long ti = id("ti");
        run("DROP INDEX ti");
        List<DataflowSpec> before = compute.created.stream().filter(s -> s.exportId() != ti).toList();

        reopen();
        assertThat(compute.createdIds()).isSorted().containsExactlyElementsOf(before.stream().map(DataflowSpec::exportId).toList());
        // Same plans: m1 still expands v (the index on v is younger than m1), m2 reads it.
        assertThat(compute.created).usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(before);
        assertThat(PlanInputs.objectIds(spec("m1").plan())).containsExactly(id("t"));
        assertThat(PlanInputs.objectIds(spec("m2").plan())).containsExactly(id("v"));
        // every dataflow hydrates at or after the last write replayed
        assertThat(compute.asOfs).allMatch(t -> t >= 0);
    }

    @Test
    void dropUninstallsAndRestrictNamesEveryDependent() {
        open();
        run("CREATE TABLE t (a int)");
        run("CREATE INDEX ti ON t (a)");
        run("CREATE VIEW v AS SELECT a FROM t");
        run("CREATE MATERIALIZED VIEW m AS SELECT a FROM v");
        run("CREATE INDEX mi ON m (a)");
        long ti = id("ti"), m = id("m"), mi = id("mi");

        SqlException restrict = sqlError(() -> run("DROP TABLE t"));
        assertThat(restrict.state()).isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
        assertThat(restrict.getMessage()).isEqualTo("cannot drop table t because other objects depend on it");
        assertThat(restrict.detail()).isEqualTo("""
                view v depends on table t
                materialized view m depends on view v
                index mi depends on materialized view m""");
        assertThat(restrict.hint()).isEqualTo("Use DROP ... CASCADE to drop the dependent objects too.");
        assertThat(compute.dropped).isEmpty();

        // Like Materialize and PostgreSQL, a table's own indexes never block RESTRICT: they go with it.
        run("CREATE TABLE u (a int)");
        run("CREATE INDEX ui ON u (a)");
        long ui = id("ui");
        run("DROP TABLE u");
        assertThat(coord.catalog().relationExists("ui")).isFalse();
        assertThat(compute.dropped).containsExactly(ui);
        compute.dropped.clear();

        SqlException wrongKind = sqlError(() -> run("DROP VIEW ti"));
        assertThat(wrongKind.state()).isEqualTo(SqlState.WRONG_OBJECT_TYPE);
        assertThat(wrongKind.getMessage()).isEqualTo("\"ti\" is not a view");
        assertThat(wrongKind.hint()).isEqualTo("Use DROP INDEX to remove an index.");
        assertThat(sqlError(() -> run("DROP INDEX m")).getMessage()).isEqualTo("\"m\" is not an index");
        SqlException missing = sqlError(() -> run("DROP INDEX nosuch"));
        assertThat(missing.state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        assertThat(missing.getMessage()).isEqualTo("index \"nosuch\" does not exist");
        assertThat(sqlError(() -> run("DROP MATERIALIZED VIEW nosuch")).state()).isEqualTo(SqlState.UNDEFINED_TABLE);
        run("DROP MATERIALIZED VIEW IF EXISTS nosuch");

        run("DROP INDEX mi");
        assertThat(compute.dropped).containsExactly(mi);
        run("DROP TABLE t CASCADE");
        assertThat(compute.dropped).containsExactly(mi, ti, m);
        assertThat(coord.catalog().relationExists("v")).isFalse();
        assertThat(coord.catalog().materializedViews()).isEmpty();

        reopen();
        assertThat(compute.createdIds()).isEmpty();
        assertThat(coord.catalog().kindOf("u")).isEmpty();
    }

    @Test
    void aFailedCreateLeavesNothingBehind() {
        open();
        run("CREATE TABLE t (a int)");
        long next = coord.catalog().nextId();
        assertThat(sqlError(() -> run("CREATE INDEX ON t (nosuch)")).state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
        assertThat(sqlError(() -> run("CREATE INDEX ON t (count(*))")).state()).isIn(SqlState.FEATURE_NOT_SUPPORTED,
                SqlState.GROUPING_ERROR);
        assertThat(sqlError(() -> run("CREATE MATERIALIZED VIEW m AS SELECT nosuch FROM t")).state())
                .isEqualTo(SqlState.UNDEFINED_COLUMN);
        assertThat(sqlError(() -> run("CREATE MATERIALIZED VIEW m AS SELECT * FROM mz_catalog.mz_tables")).state())
                .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        SqlException cluster = sqlError(() -> run("CREATE INDEX i IN CLUSTER other ON t (a)"));
        assertThat(cluster.state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        assertThat(cluster.getMessage()).isEqualTo("unknown cluster 'other'");
        assertThat(sqlError(() -> run("CREATE INDEX ON nosuch (a)")).getMessage()).isEqualTo("relation \"nosuch\" does not exist");
        assertThat(compute.created).isEmpty();
        assertThat(coord.catalog().indexes()).isEmpty();
        assertThat(coord.catalog().nextId()).isEqualTo(next);
        reopen();
        assertThat(coord.catalog().indexes()).isEmpty();
        assertThat(coord.catalog().materializedViews()).isEmpty();
    }

    @Test
    void withoutAReplicaCreateIndexFailsAndCreatesNothing() {
        open(ComputeController.NONE);
        run("CREATE TABLE t (a int)");
        SqlException e = sqlError(() -> run("CREATE INDEX i ON t (a)"));
        assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        assertThat(coord.catalog().relationExists("i")).isFalse();
        close();
        open(ComputeController.NONE);
        assertThat(coord.catalog().relationExists("i")).isFalse();
    }

    @Test
    void oneNamespaceForEveryKind() {
        open();
        run("CREATE TABLE t (a int)");
        run("CREATE INDEX i ON t (a)");
        run("CREATE MATERIALIZED VIEW m AS SELECT a FROM t");
        for (String sql : List.of("CREATE INDEX t ON t (a)", "CREATE VIEW i AS SELECT 1", "CREATE TABLE m (a int)",
                "CREATE MATERIALIZED VIEW i AS SELECT 1", "CREATE INDEX m ON t (a)")) {
            SqlException e = sqlError(() -> run(sql));
            assertThat(e.state()).as(sql).isEqualTo(SqlState.DUPLICATE_TABLE);
            assertThat(e.getMessage()).as(sql).endsWith("already exists");
        }
        run("CREATE INDEX IF NOT EXISTS i ON t (a)");
        run("CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT 1");
        assertThat(sqlError(() -> run("CREATE OR REPLACE MATERIALIZED VIEW i AS SELECT 1")).state())
                .isEqualTo(SqlState.WRONG_OBJECT_TYPE);
        assertThat(sqlError(() -> run("CREATE INDEX ON i (a)")).state()).isEqualTo(SqlState.WRONG_OBJECT_TYPE);
        assertThat(compute.created).hasSize(2);
    }

    @Test
    void createOrReplaceMaterializedViewSwapsDataflows() {
        open();
        run("CREATE TABLE t (a int)");
        run("CREATE MATERIALIZED VIEW m AS SELECT a FROM t");
        long old = id("m");
        run("CREATE OR REPLACE MATERIALIZED VIEW m AS SELECT a + 1 AS b FROM t");
        assertThat(id("m")).isGreaterThan(old);
        assertThat(compute.dropped).containsExactly(old);
        assertThat(coord.catalog().materializedView("m").orElseThrow().columnNames()).containsExactly("b");
        run("CREATE INDEX ON m (b)");
        assertThat(sqlError(() -> run("CREATE OR REPLACE MATERIALIZED VIEW m AS SELECT 1 AS b")).state())
                .isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
        reopen();
        assertThat(coord.catalog().materializedView("m").orElseThrow().columnNames()).containsExactly("b");
        assertThat(compute.createdIds()).containsExactly(id("m"), id("m_b_idx"));
    }

    @Test
    void aViewWithMaintainedDependentsCannotBeReplaced() {
        open();
        run("CREATE TABLE t (a int)");
        run("CREATE VIEW v AS SELECT a FROM t");
        run("CREATE VIEW w AS SELECT a FROM v");
        run("CREATE OR REPLACE VIEW v AS SELECT a FROM t WHERE a > 0"); // plain dependents re-plan: fine
        run("CREATE INDEX wi ON w (a)");
        SqlException e = sqlError(() -> run("CREATE OR REPLACE VIEW v AS SELECT a FROM t"));
        assertThat(e.state()).isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
        assertThat(e.getMessage()).isEqualTo("cannot replace view v because indexes or materialized views depend on it");
        assertThat(e.detail()).isEqualTo("view w depends on view v\nindex wi depends on view w");
        run("DROP INDEX wi");
        run("CREATE OR REPLACE VIEW v AS SELECT a FROM t");
    }

    @Test
    void idleTicksAdvanceTablesAndCompute() {
        open();
        run("CREATE TABLE t (a int)");
        var table = coord.table(id("t")).orElseThrow();
        long ts = coord.advanceTime();
        assertThat(table.upper()).isEqualTo(ts + 1);
        assertThat(compute.advances()).contains(ts + 1);
        // The ticker does the same on its own once no write has been applied for a while.
        await(() -> coord.readTimestamp() > ts && table.upper() > ts + 1);
        assertThat(compute.advances().getLast()).isEqualTo(table.upper());
    }

    @Test
    void systemRelationsReportHydrationAndLag() {
        open();
        run("CREATE TABLE t (a int)");
        run("CREATE INDEX ti ON t (a)");
        run("CREATE MATERIALIZED VIEW m AS SELECT a FROM t");
        String t = "u" + id("t"), ti = "u" + id("ti"), m = "u" + id("m");
        assertThat(q("SELECT object_id, hydrated FROM mz_internal.mz_hydration_statuses"))
                .containsExactly(List.of(ti, "f"), List.of(m, "f"));
        assertThat(q("SELECT object_id FROM mz_internal.mz_wallclock_global_lag WHERE lag IS NULL"))
                .containsExactly(List.of(ti), List.of(m));
        long upper = coord.table(id("t")).orElseThrow().upper();
        compute.hydrate(id("ti"), upper);
        assertThat(q("SELECT object_id, hydrated FROM mz_internal.mz_hydration_statuses"))
                .containsExactly(List.of(ti, "t"), List.of(m, "f"));
        assertThat(q("SELECT object_id FROM mz_internal.mz_wallclock_global_lag WHERE lag >= INTERVAL '0 seconds'"))
                .containsExactly(List.of(t), List.of(ti));
        assertThat(q("SELECT id, name, managed, replication_factor FROM mz_catalog.mz_clusters"))
                .containsExactly(List.of("u1", "default", "t", "1"));
        assertThat(q("SELECT name, position, nullable, type FROM mz_catalog.mz_columns WHERE id = '" + m + "'"))
                .containsExactly(List.of("a", "1", "t", "integer"));
        assertThat(Set.copyOf(q("SELECT id FROM mz_catalog.mz_tables"))).containsExactly(List.of(t));
        // mz_catalog is on the search path, as in Materialize
        assertThat(q("SELECT name FROM mz_indexes")).containsExactly(List.of("ti"));
        SqlException write = sqlError(() -> run("INSERT INTO m VALUES (1)"));
        assertThat(write.state()).isEqualTo(SqlState.WRONG_OBJECT_TYPE);
        assertThat(write.getMessage()).isEqualTo("cannot change materialized view \"m\"");
    }

    static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("condition not reached in 30 s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

}
