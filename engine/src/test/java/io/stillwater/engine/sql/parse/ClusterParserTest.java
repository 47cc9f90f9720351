package io.stillwater.engine.sql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.Statement.ReplicaName;
import io.stillwater.engine.sql.Statement.ReplicaOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Materialize's cluster DDL as the utility parser reads it. */
class ClusterParserTest {
    static Statement parse(String sql) { return UtilityParser.parse(sql).orElseThrow(); }

    static void assertSqlError(String sql, SqlState state, String message) {
        assertThatThrownBy(() -> UtilityParser.parse(sql)).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(state);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void createManagedCluster() {
        assertThat(parse("CREATE CLUSTER c (SIZE = 'scale=1,workers=2', REPLICATION FACTOR 3)"))
                .isEqualTo(new Statement.CreateCluster("c", true, "scale=1,workers=2", 3, List.of()));
        assertThat(parse("create cluster c (size '1');"))
                .isEqualTo(new Statement.CreateCluster("c", true, "1", 1, List.of()));
        assertThat(parse("CREATE CLUSTER c SIZE = '2', REPLICATION FACTOR = 0"))
                .isEqualTo(new Statement.CreateCluster("c", true, "2", 0, List.of()));
        assertThat(parse("CREATE CLUSTER default (SIZE '1')"))
                .isEqualTo(new Statement.CreateCluster("default", true, "1", 1, List.of()));
        assertThat(parse("CREATE CLUSTER c (SIZE '1')").commandVerb()).isEqualTo("CREATE CLUSTER");
    }

    @Test
    void createUnmanagedCluster() {
        assertThat(parse("CREATE CLUSTER c REPLICAS (r1 (SIZE 'scale=1,workers=1'), r2 (SIZE = '2'))"))
                .isEqualTo(new Statement.CreateCluster("c", false, null, 0,
                        List.of(new ReplicaOption("r1", "scale=1,workers=1"), new ReplicaOption("r2", "2"))));
        assertThat(parse("CREATE CLUSTER c REPLICAS ()"))
                .isEqualTo(new Statement.CreateCluster("c", false, null, 0, List.of()));
    }

    @Test
    void clusterOptionsStillwaterDoesNotHaveAreFeatureNotSupported() {
        assertSqlError("CREATE CLUSTER c (SIZE '1', INTROSPECTION INTERVAL 0)", SqlState.FEATURE_NOT_SUPPORTED,
                "cluster option INTROSPECTION is not supported");
        assertSqlError("CREATE CLUSTER c REPLICAS (r1 (SIZE '1', AVAILABILITY ZONE 'a'))", SqlState.FEATURE_NOT_SUPPORTED,
                "cluster replica option AVAILABILITY is not supported");
        assertSqlError("CREATE CLUSTER c", SqlState.INVALID_PARAMETER_VALUE, "SIZE option is required for managed clusters");
        assertSqlError("CREATE CLUSTER c (SIZE '1'", SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }

    @Test
    void alterCluster() {
        assertThat(parse("ALTER CLUSTER c SET (SIZE = 'scale=1,workers=4')"))
                .isEqualTo(new Statement.AlterCluster("c", "scale=1,workers=4", -1));
        assertThat(parse("ALTER CLUSTER c SET (REPLICATION FACTOR = 2, SIZE '1')"))
                .isEqualTo(new Statement.AlterCluster("c", "1", 2));
        assertSqlError("ALTER CLUSTER c RENAME TO d", SqlState.FEATURE_NOT_SUPPORTED, "ALTER CLUSTER RENAME is not supported");
    }

    @Test
    void replicas() {
        assertThat(parse("CREATE CLUSTER REPLICA c.r2 SIZE 'scale=1,workers=2'"))
                .isEqualTo(new Statement.CreateClusterReplica("c", "r2", "scale=1,workers=2"));
        assertThat(parse("CREATE CLUSTER REPLICA default.r2 (SIZE = '1')"))
                .isEqualTo(new Statement.CreateClusterReplica("default", "r2", "1"));
        assertThat(parse("DROP CLUSTER REPLICA IF EXISTS c.r1, d.r2"))
                .isEqualTo(new Statement.DropClusterReplica(List.of(new ReplicaName("c", "r1"), new ReplicaName("d", "r2")), true));
        assertThat(parse("DROP CLUSTER REPLICA c.r1").commandVerb()).isEqualTo("DROP CLUSTER REPLICA");
    }

    @Test
    void dropCluster() {
        assertThat(parse("DROP CLUSTER c")).isEqualTo(new Statement.DropCluster(List.of("c"), false, false));
        assertThat(parse("DROP CLUSTER IF EXISTS c, d CASCADE")).isEqualTo(new Statement.DropCluster(List.of("c", "d"), true, true));
        assertThat(parse("DROP CLUSTER default RESTRICT")).isEqualTo(new Statement.DropCluster(List.of("default"), false, false));
    }

    @Test
    void showClustersAndTheClusterVariable() {
        assertThat(parse("SHOW CLUSTERS")).isEqualTo(new Statement.ShowClusters(false));
        assertThat(parse("SHOW CLUSTER REPLICAS")).isEqualTo(new Statement.ShowClusters(true));
        assertThat(parse("SHOW cluster")).isEqualTo(new Statement.ShowVariable("cluster"));
        assertThat(parse("SHOW cluster_replica")).isEqualTo(new Statement.ShowVariable("cluster_replica"));
        assertThat(parse("SET cluster = c1")).isEqualTo(new Statement.SetVariable("cluster", "c1", false));
        assertThat(parse("SET cluster_replica TO r1")).isEqualTo(new Statement.SetVariable("cluster_replica", "r1", false));
    }
}
