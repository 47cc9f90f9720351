package io.stillwater.engine.coord;

import io.stillwater.engine.params.Params;
import java.util.Arrays;
import org.assertj.core.groups.Tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clusters and replicas end to end through a session, on real {@link ComputeReplica}s:
 * DDL and its errors, durability across restarts (replicas re-provisioned with their
 * recorded runtime mode, dataflows rehydrated), re-provisioning by ALTER CLUSTER, and
 * Materialize's read rule (a session uses only its cluster's indexes; materialized views
 * are readable from every cluster).
 */
class ClusterDdlTest {
    @TempDir
    Path dir;
    Coordinator coord;
    EngineSession session;
    /** Every spec the coordinator provisioned a replica with, in order. */
    final List<ReplicaSpec> provisioned = new CopyOnWriteArrayList<>();
    final ReplicaProvisioner recording = spec -> {
        provisioned.add(spec);
        return new ComputeReplica(spec.workers());
    };

    @BeforeEach
    void open() {
        coord = Coordinator.open(new EngineConfig(dir, false, 1), recording);
        session = newSession("materialize");
    }

    EngineSession newSession(String user) {
        return new EngineSession(coord, new StatementPlanner(UtilityParser::parse), user, "materialize", Map.of());
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
        return out;
    }

    String explain(String sql) { return q("EXPLAIN " + sql).get(0).get(0); }

    static void assertSqlError(Runnable r, SqlState state, String message) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(state);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    ClusterDef cluster(String name) { return coord.clusters().byName(name).orElseThrow(); }

    long id(String name) { return coord.catalog().idOf(name); }

    @Test
    void defaultClusterExistsAtFirstStartAndSurvivesRestart() {
        assertThat(q("SHOW cluster")).containsExactly(List.of("default"));
        assertThat(q("SHOW CLUSTERS")).containsExactly(List.of("default", "r1 (scale=1,workers=1)"));
        assertThat(q("SELECT id, name, managed, size, replication_factor FROM mz_catalog.mz_clusters"))
                .containsExactly(List.of("u1", "default", "t", "scale=1,workers=1", "1"));
        assertThat(provisioned).extracting(ReplicaSpec::cluster, ReplicaSpec::replica, ReplicaSpec::replicaId,
                ReplicaSpec::workers).containsExactly(Tuple.tuple("default", "r1", "u1", 1));
        reopen();
        // Re-provisioned from the log, not created again: same ids, no second default.
        assertThat(q("SELECT id, name FROM mz_catalog.mz_clusters")).containsExactly(List.of("u1", "default"));
        assertThat(q("SELECT id, name, cluster_id FROM mz_catalog.mz_cluster_replicas"))
                .containsExactly(List.of("u1", "r1", "u1"));
        assertThat(provisioned).hasSize(2);
    }

    @Test
    void managedAndUnmanagedClustersAndTheirReplicas() {
        run("CREATE CLUSTER c1 (SIZE = 'scale=1,workers=2', REPLICATION FACTOR = 2)");
        run("CREATE CLUSTER c2 REPLICAS (a (SIZE '1'), b (SIZE = 'scale=1, workers=3'))");
        assertThat(q("SHOW CLUSTER REPLICAS")).containsExactly(
                List.of("c1", "r1", "scale=1,workers=2", "t"), List.of("c1", "r2", "scale=1,workers=2", "t"),
                List.of("c2", "a", "1", "t"), List.of("c2", "b", "scale=1, workers=3", "t"),
                List.of("default", "r1", "scale=1,workers=1", "t"));
        assertThat(q("SELECT name, managed, size, replication_factor FROM mz_catalog.mz_clusters WHERE name <> 'default'"))
                .containsExactlyInAnyOrder(List.of("c1", "t", "scale=1,workers=2", "2"), Row2.of("c2", "f", null, null));
        assertThat(provisioned.subList(1, 5)).extracting(ReplicaSpec::replica, ReplicaSpec::workers)
                .containsExactly(Tuple.tuple("r1", 2), Tuple.tuple("r2", 2),
                        Tuple.tuple("a", 1), Tuple.tuple("b", 3));

        run("CREATE CLUSTER REPLICA c2.c SIZE 'scale=1,workers=1'");
        run("DROP CLUSTER REPLICA c2.a");
        assertThat(cluster("c2").replicas()).extracting(ReplicaDef::name).containsExactly("b", "c");
        run("DROP CLUSTER REPLICA IF EXISTS c2.a");

        assertSqlError(() -> run("CREATE CLUSTER REPLICA c1.r3 SIZE '1'"), SqlState.FEATURE_NOT_SUPPORTED,
                "cannot create more replicas in managed cluster 'c1'");
        assertSqlError(() -> run("CREATE CLUSTER c1 (SIZE '1')"), SqlState.DUPLICATE_OBJECT, "cluster 'c1' already exists");
        assertSqlError(() -> run("CREATE CLUSTER REPLICA c2.b SIZE '1'"), SqlState.DUPLICATE_OBJECT,
                "cluster replica 'c2.b' already exists");
        assertSqlError(() -> run("CREATE CLUSTER c3 (SIZE 'scale=1,workers=65')"), SqlState.INVALID_PARAMETER_VALUE,
                "unknown cluster replica size 'scale=1,workers=65'");
        assertSqlError(() -> run("CREATE CLUSTER c3 (SIZE 'large')"), SqlState.INVALID_PARAMETER_VALUE,
                "unknown cluster replica size 'large'");
        assertSqlError(() -> run("DROP CLUSTER nope"), SqlState.UNDEFINED_OBJECT, "unknown cluster 'nope'");
        assertSqlError(() -> run("DROP CLUSTER REPLICA c2.zz"), SqlState.UNDEFINED_OBJECT, "unknown cluster replica 'c2.zz'");
        assertSqlError(() -> run("CREATE INDEX i IN CLUSTER nope ON mz_tables (id)"), SqlState.UNDEFINED_OBJECT,
                "unknown cluster 'nope'");
        run("DROP CLUSTER IF EXISTS nope");

        reopen();
        assertThat(q("SHOW CLUSTERS")).containsExactly(List.of("c1", "r1 (scale=1,workers=2), r2 (scale=1,workers=2)"),
                List.of("c2", "b (scale=1, workers=3), c (scale=1,workers=1)"), List.of("default", "r1 (scale=1,workers=1)"));
        // Ids are never reused, even those of dropped replicas.
        run("CREATE CLUSTER REPLICA c2.d SIZE '1'");
        assertThat(cluster("c2").replica("d").orElseThrow().id()).isEqualTo("u7");
    }

    /** A row with nulls (List.of refuses them). */
    static final class Row2 {
        static List<String> of(String... v) { return Arrays.asList(v); }
    }

    @Test
    void dropClusterRestrictRefusesWhileObjectsLiveOnItCascadeDropsThem() {
        run("CREATE CLUSTER c1 (SIZE '1')");
        run("CREATE TABLE t (a int)");
        run("CREATE INDEX t_a IN CLUSTER c1 ON t (a)");
        run("CREATE MATERIALIZED VIEW m IN CLUSTER c1 AS SELECT a FROM t");
        run("CREATE VIEW v AS SELECT * FROM m");
        run("CREATE INDEX t_default ON t (a)");
        assertSqlError(() -> run("DROP CLUSTER c1"), SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop cluster \"c1\" because other objects depend on it");
        assertSqlError(() -> run("DROP CLUSTER c1 RESTRICT"), SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop cluster \"c1\" because other objects depend on it");
        String replica = cluster("c1").replicas().get(0).id();
        run("DROP CLUSTER c1 CASCADE");
        assertThat(coord.clusters().byName("c1")).isEmpty();
        assertThat(coord.catalog().kindOf("t_a")).isEmpty();
        assertThat(coord.catalog().kindOf("m")).isEmpty();
        assertThat(coord.catalog().kindOf("v")).as("depends on m").isEmpty();
        assertThat(coord.catalog().kindOf("t_default")).isPresent();
        assertThat(coord.serving().replica(replica)).as("the replica stopped").isEmpty();
        reopen();
        assertThat(coord.clusters().byName("c1")).isEmpty();
        assertThat(q("SELECT name FROM mz_indexes")).containsExactly(List.of("t_default"));
        // The default cluster can be dropped too, durably; reads of tables then need another cluster.
        run("DROP CLUSTER default CASCADE");
        reopen();
        assertThat(q("SELECT name FROM mz_catalog.mz_clusters")).isEmpty();
        assertSqlError(() -> run("SELECT * FROM t"), SqlState.UNDEFINED_OBJECT, "unknown cluster 'default'");
        run("CREATE CLUSTER default (SIZE '1')");
        run("INSERT INTO t VALUES (4)");
        assertThat(q("SELECT a FROM t")).containsExactly(List.of("4"));
    }

    @Test
    void restartRestoresClustersAndRehydratesTheirDataflows() {
        run("CREATE CLUSTER c1 (SIZE = 'scale=1,workers=2', REPLICATION FACTOR 2)");
        run("CREATE TABLE t (a int, b text)");
        run("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
        run("CREATE INDEX t_a IN CLUSTER c1 ON t (a)");
        run("CREATE MATERIALIZED VIEW m IN CLUSTER c1 AS SELECT count(*) AS n FROM t");
        reopen();
        run("INSERT INTO t VALUES (3, 'z')");
        for (ReplicaDef r : cluster("c1").replicas()) {
            ComputeController c = coord.serving().replica(r.id()).orElseThrow();
            assertThat(c.reader(id("t_a"))).as("t_a on " + r.name()).isPresent();
            assertThat(c.reader(id("m"))).as("m on " + r.name()).isPresent();
            assertThat(coord.serving().defaultReplica().reader(id("t_a"))).as("not on default").isEmpty();
            run("SET cluster = c1");
            run("SET cluster_replica = " + r.name());
            assertThat(explain("SELECT b FROM t WHERE a = 3")).contains("ReadIndex t_a");
            assertThat(q("SELECT b FROM t WHERE a = 3")).containsExactly(List.of("z"));
            assertThat(q("SELECT n FROM m")).containsExactly(List.of("3"));
        }
    }

    @Test
    void alterClusterReprovisionsItsReplicas() {
        run("CREATE CLUSTER c1 (SIZE '1')");
        run("CREATE TABLE t (a int)");
        run("INSERT INTO t VALUES (1), (2)");
        run("CREATE INDEX t_a IN CLUSTER c1 ON t (a)");
        String old = cluster("c1").replicas().get(0).id();
        run("ALTER CLUSTER c1 SET (SIZE = 'scale=1,workers=2', REPLICATION FACTOR = 2)");
        ClusterDef c1 = cluster("c1");
        assertThat(c1.replicas()).extracting(ReplicaDef::name).containsExactly("r1", "r2");
        assertThat(c1.replicas()).extracting(ReplicaDef::id).doesNotContain(old);
        assertThat(coord.serving().replica(old)).as("the old replica stopped").isEmpty();
        assertThat(provisioned.get(provisioned.size() - 1).workers()).isEqualTo(2);
        run("INSERT INTO t VALUES (3)");
        run("SET cluster = c1");
        for (ReplicaDef r : c1.replicas()) {
            run("SET cluster_replica = " + r.name());
            assertThat(coord.serving().servingReplica("c1", r.name()).replicaId()).isEqualTo(r.id());
            assertThat(explain("SELECT a FROM t WHERE a = 3")).contains("ReadIndex t_a");
            assertThat(q("SELECT a FROM t WHERE a >= 2 ORDER BY a")).containsExactly(List.of("2"), List.of("3"));
        }
        run("RESET cluster_replica");
        run("ALTER CLUSTER c1 SET (REPLICATION FACTOR = 0)");
        assertThat(cluster("c1").replicas()).isEmpty();
        assertThat(cluster("c1").size().workers()).isEqualTo(2);
        assertSqlError(() -> run("SELECT a FROM t"), SqlState.UNDEFINED_OBJECT, "cluster 'c1' has no replicas");
        run("ALTER CLUSTER c1 SET (REPLICATION FACTOR = 1)");
        assertThat(q("SELECT a FROM t WHERE a = 1")).containsExactly(List.of("1"));
        run("CREATE CLUSTER u REPLICAS (x (SIZE '1'))");
        assertSqlError(() -> run("ALTER CLUSTER u SET (SIZE '2')"), SqlState.FEATURE_NOT_SUPPORTED,
                "cannot ALTER CLUSTER SET (SIZE, REPLICATION FACTOR) of unmanaged cluster 'u'");
    }

    @Test
    void provisioningCapturesTheInteractiveRuntimeFlagWhenAReplicaIsCreated() {
        assertThat(provisioned.get(0).interactiveRuntime()).as("the default").isTrue();
        coord.ddl().alterSystemSet("enable_compute_interactive_runtime", "false");
        run("CREATE CLUSTER solo (SIZE '1')");
        ReplicaSpec solo = provisioned.get(provisioned.size() - 1);
        assertThat(solo.cluster()).isEqualTo("solo");
        assertThat(solo.interactiveRuntime()).isFalse();
        assertThat(solo.params().get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)).isFalse();
        coord.ddl().alterSystemReset("enable_compute_interactive_runtime");
        // The flag flipped back: existing replicas keep their mode, new ones take the new value.
        assertThat(q("SELECT c.name, r.name, r.interactive_runtime FROM mz_catalog.mz_cluster_replicas r "
                + "JOIN mz_catalog.mz_clusters c ON c.id = r.cluster_id ORDER BY 1"))
                .containsExactly(List.of("default", "r1", "t"), List.of("solo", "r1", "f"));
        reopen();
        ReplicaSpec again = provisioned.stream().filter(s -> s.cluster().equals("solo")).reduce((a, b) -> b).orElseThrow();
        assertThat(again).isNotSameAs(solo);
        assertThat(again.interactiveRuntime()).as("recorded at creation, kept across restart").isFalse();
        run("ALTER CLUSTER solo SET (REPLICATION FACTOR 1)");
        assertThat(provisioned.get(provisioned.size() - 1).interactiveRuntime()).as("re-provisioned").isTrue();
    }

    @Test
    void aSessionUsesOnlyTheIndexesOfItsCluster() {
        run("CREATE CLUSTER c1 (SIZE '1')");
        run("CREATE TABLE t (a int, b int)");
        run("INSERT INTO t VALUES (1, 10), (2, 20)");
        run("CREATE INDEX t_a IN CLUSTER c1 ON t (a)");
        run("CREATE VIEW v AS SELECT a, b * 2 AS b2 FROM t");
        run("CREATE INDEX v_a IN CLUSTER c1 ON v (a)");
        run("CREATE MATERIALIZED VIEW m IN CLUSTER c1 AS SELECT sum(b) AS s FROM t");

        // default: no index is usable; the table is read, the view recomputed, the MV read from c1.
        assertThat(explain("SELECT b FROM t WHERE a = 2")).doesNotContain("ReadIndex");
        assertThat(q("SELECT b FROM t WHERE a = 2")).containsExactly(List.of("20"));
        assertThat(explain("SELECT b2 FROM v WHERE a = 2")).doesNotContain("ReadIndex");
        assertThat(q("SELECT b2 FROM v WHERE a = 2")).containsExactly(List.of("40"));
        assertThat(q("SELECT s FROM m")).containsExactly(List.of("30"));

        run("SET cluster = c1");
        assertThat(q("SHOW cluster")).containsExactly(List.of("c1"));
        assertThat(explain("SELECT b FROM t WHERE a = 2")).contains("ReadIndex t_a");
        assertThat(q("SELECT b FROM t WHERE a = 2")).containsExactly(List.of("20"));
        assertThat(explain("SELECT b2 FROM v WHERE a = 2")).contains("ReadIndex v_a");
        assertThat(q("SELECT b2 FROM v WHERE a = 2")).containsExactly(List.of("40"));

        // Objects go to the session's cluster unless IN CLUSTER says otherwise.
        run("CREATE INDEX t_b ON t (b)");
        run("CREATE MATERIALIZED VIEW m2 AS SELECT max(a) AS x FROM t");
        assertThat(q("SHOW INDEXES ON t")).extracting(r -> r.get(0) + "@" + r.get(2))
                .containsExactlyInAnyOrder("t_a@c1", "t_b@c1");
        assertThat(coord.catalog().materializedView("m2").orElseThrow().cluster()).isEqualTo("c1");

        // An MV on default reading one on c1 recomputes it (no replica of default holds m).
        run("RESET cluster");
        run("CREATE MATERIALIZED VIEW mm AS SELECT s + 1 AS s1 FROM m");
        run("INSERT INTO t VALUES (3, 30)");
        assertThat(q("SELECT s1 FROM mm")).containsExactly(List.of("61"));
        run("SET cluster = c1");
        assertThat(q("SELECT s1 FROM mm")).as("read from default's replica").containsExactly(List.of("61"));

        run("SET cluster_replica = r9");
        assertSqlError(() -> run("SELECT a FROM t"), SqlState.UNDEFINED_OBJECT, "unknown cluster replica 'c1.r9'");
        run("SET cluster = nope");
        assertSqlError(() -> run("SELECT a FROM t"), SqlState.UNDEFINED_OBJECT, "unknown cluster 'nope'");
        assertSqlError(() -> run("CREATE INDEX ON t (a)"), SqlState.UNDEFINED_OBJECT, "unknown cluster 'nope'");
        assertThat(q("SELECT 1 + 1")).containsExactly(List.of("2"));
        assertThat(q("SELECT count(*) FROM mz_catalog.mz_clusters")).containsExactly(List.of("2"));
    }

    @Test
    void replicasAddedWhileWritesRunHydrateWithoutLosingOrDoublingAny() throws Exception {
        run("CREATE CLUSTER c REPLICAS (a (SIZE '2'))");
        run("CREATE TABLE t (a int)");
        run("CREATE INDEX t_a IN CLUSTER c ON t (a)");
        run("CREATE MATERIALIZED VIEW n IN CLUSTER c AS SELECT count(*) AS n FROM t");
        try (EngineSession admin = newSession("mz_system")) {
            admin.execute("CREATE ROLE writer LOGIN");
        }
        run("GRANT INSERT ON t TO writer"); // t is materialize's
        int writes = 300;
        Thread writer = new Thread(() -> {
            try (EngineSession w = newSession("writer")) {
                for (int i = 0; i < writes; i++) w.execute("INSERT INTO t VALUES (" + i + ")");
            }
        });
        writer.start();
        for (String r : List.of("b", "d", "e")) run("CREATE CLUSTER REPLICA c." + r + " SIZE '1'");
        run("DROP CLUSTER REPLICA c.d");
        writer.join();
        run("SET cluster = c");
        for (String r : List.of("a", "b", "e")) {
            run("SET cluster_replica = " + r);
            assertThat(q("SELECT count(*), sum(a) FROM t")).as(r).containsExactly(List.of("300", "44850"));
            assertThat(q("SELECT n FROM n")).as(r).containsExactly(List.of("300"));
        }
    }
}
