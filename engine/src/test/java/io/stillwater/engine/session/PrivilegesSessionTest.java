package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.error.SqlException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Roles, owners and privileges through the Session API: {@code s} is the role
 * {@code materialize} (created on first connection, no attributes), {@code sys} the
 * superuser {@code mz_system}, {@code bob} a second ordinary role.
 */
class PrivilegesSessionTest extends SessionTestBase {
    Session sys;
    Session bob;

    @BeforeEach
    void openOthers() {
        sys = engine.connect("mz_system", "materialize", Map.of());
        bob = engine.connect("bob", "materialize", Map.of());
    }

    @AfterEach
    void closeOthers() {
        bob.close();
        sys.close();
    }

    @Override
    void reopen() {
        closeOthers();
        super.reopen();
        openOthers();
    }

    private static SqlException error(Session session, String sql) {
        try {
            if (session.execute(sql) instanceof ExecutionResult.Rows rows) rows.rows();
        } catch (SqlException e) {
            return e;
        }
        throw new AssertionError("expected an error from " + sql);
    }

    private static void denied(Session session, String sql, String message) {
        SqlException e = error(session, sql);
        assertThat(e.state().code()).as(e.getMessage()).isEqualTo("42501");
        assertThat(e.getMessage()).isEqualTo(message);
    }

    @Test
    void aPlanCachedForOneRoleIsCheckedAgainForTheNext() {
        s.execute("CREATE TABLE c (k int)");
        s.execute("INSERT INTO c VALUES (1), (2)");
        // The owner's statements fill the shared plan cache: exact text and the lifted form.
        assertThat(q("SELECT k FROM c WHERE k = 1")).containsExactly(List.of("1"));
        assertThat(q("SELECT k FROM c WHERE k = 2")).containsExactly(List.of("2"));
        assertThat(q("SELECT k FROM c WHERE k = 1")).containsExactly(List.of("1"));
        assertThat(rows(sys.execute("SHOW plan_cache_stats")).get(0).get(2)).isNotEqualTo("0"); // lifted hits

        denied(bob, "SELECT k FROM c WHERE k = 1", "permission denied for table c"); // the owner's lifted plan
        denied(bob, "SELECT k FROM c WHERE k = 7", "permission denied for table c"); // the same, other literal
        s.execute("SELECT count(*) FROM c"); // exact text (nothing to lift), cached by the owner
        s.execute("SELECT count(*) FROM c");
        denied(bob, "SELECT count(*) FROM c", "permission denied for table c");
        s.execute("INSERT INTO c VALUES (3)");
        denied(bob, "INSERT INTO c VALUES (4)", "permission denied for table c");
        s.execute("GRANT SELECT ON c TO bob");
        assertThat(rows(bob.execute("SELECT k FROM c WHERE k = 2"))).containsExactly(List.of("2"));
    }

    @Test
    void newObjectsAreTheirOwnersOnlyUntilGranted() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("INSERT INTO t VALUES (1)");
        assertThat(q("SELECT a FROM t")).containsExactly(List.of("1"));

        denied(bob, "SELECT * FROM t", "permission denied for table t");
        denied(bob, "INSERT INTO t VALUES (2)", "permission denied for table t");
        denied(bob, "UPDATE t SET a = 3", "permission denied for table t");
        denied(bob, "DELETE FROM t WHERE a = 1", "permission denied for table t");
        denied(bob, "TRUNCATE t", "permission denied for table t");
        denied(bob, "COPY t TO STDOUT", "permission denied for table t");
        denied(bob, "EXPLAIN SELECT * FROM t", "permission denied for table t");
        denied(bob, "SELECT * FROM (SELECT 1) x, t", "permission denied for table t");
        denied(bob, "DROP TABLE t", "must be owner of table t");
        denied(bob, "CREATE VIEW bv AS SELECT * FROM t", "permission denied for table t");
        denied(bob, "CREATE MATERIALIZED VIEW bm AS SELECT * FROM t", "permission denied for table t");
        denied(bob, "CREATE INDEX ON t (a)", "must be owner of table t");
        denied(bob, "CREATE INDEX ON t ((1/0))", "must be owner of table t");

        assertThat(rows(sys.execute("SELECT a FROM t"))).containsExactly(List.of("1")); // superuser bypasses

        assertThat(tag("GRANT SELECT, INSERT ON t TO bob")).isEqualTo("GRANT");
        assertThat(rows(bob.execute("SELECT a FROM t"))).containsExactly(List.of("1"));
        bob.execute("INSERT INTO t VALUES (2)");
        denied(bob, "DELETE FROM t WHERE a = 1", "permission denied for table t");
        assertThat(tag("REVOKE INSERT ON TABLE t FROM bob")).isEqualTo("REVOKE");
        denied(bob, "INSERT INTO t VALUES (3)", "permission denied for table t");
        assertThat(rows(bob.execute("SELECT count(*) FROM t"))).containsExactly(List.of("2"));
        s.execute("REVOKE ALL ON t FROM bob");
        denied(bob, "SELECT * FROM t", "permission denied for table t");
        s.execute("GRANT SELECT ON t TO PUBLIC");
        assertThat(rows(bob.execute("SELECT count(*) FROM t"))).containsExactly(List.of("2"));
    }

    @Test
    void aViewReadsWithItsOwnersPrivileges() {
        s.execute("CREATE TABLE secret (a int, b text)");
        s.execute("INSERT INTO secret VALUES (1, 'x'), (2, 'y')");
        s.execute("CREATE VIEW visible AS SELECT a FROM secret");
        denied(bob, "SELECT * FROM visible", "permission denied for view visible");
        s.execute("GRANT SELECT ON visible TO bob");
        assertThat(rows(bob.execute("SELECT a FROM visible ORDER BY a"))).containsExactly(List.of("1"), List.of("2"));
        denied(bob, "SELECT * FROM secret", "permission denied for table secret");
        denied(bob, "SELECT * FROM visible, secret", "permission denied for table secret");
        denied(bob, "GRANT SELECT ON secret TO bob", "permission denied for table secret");
    }

    @Test
    void ownershipGuardsDropAndCascade() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("GRANT SELECT ON t TO bob");
        bob.execute("CREATE VIEW bobs AS SELECT a FROM t");
        denied(s, "SELECT * FROM bobs", "permission denied for view bobs");
        // Dropping t with CASCADE would drop bob's view: the owner of t does not own it.
        denied(s, "DROP TABLE t CASCADE", "must be owner of view bobs");
        denied(bob, "ALTER TABLE t OWNER TO bob", "must be owner of table t");
        denied(s, "ALTER TABLE t OWNER TO bob", "must be member of role \"bob\"");
        sys.execute("ALTER TABLE t OWNER TO bob");
        denied(s, "SELECT * FROM t", "permission denied for table t");
        assertThat(tag("DROP TABLE IF EXISTS nosuch")).isEqualTo("DROP TABLE");
        bob.execute("DROP TABLE t CASCADE");
    }

    @Test
    void roleDdlFollowsPostgresRules() {
        denied(s, "CREATE ROLE carol", "permission denied to create role");
        denied(s, "CREATE ROLE carol SUPERUSER", "must be superuser to create superusers");
        sys.execute("CREATE ROLE admin WITH CREATEROLE LOGIN");
        Session admin = engine.connect("admin", "materialize", Map.of());
        try {
            assertThat(admin.execute("CREATE USER carol PASSWORD 'secret'")).isEqualTo(new ExecutionResult.Command("CREATE ROLE"));
            denied(admin, "CREATE ROLE boss SUPERUSER", "must be superuser to create superusers");
            denied(admin, "ALTER ROLE mz_system PASSWORD 'x'", "must be superuser to alter superuser roles or change superuser attribute");
            admin.execute("ALTER ROLE carol NOLOGIN");
        } finally {
            admin.close();
        }
        LoginRole carol = engine.roles().find("carol").orElseThrow();
        assertThat(carol.canLogin()).isFalse();
        assertThat(carol.superuser()).isFalse();
        assertThat(carol.password()).isPresent();
        SqlException dup = error(sys, "CREATE ROLE carol");
        assertThat(dup.state().code()).isEqualTo("42710");
        assertThat(dup.getMessage()).isEqualTo("role \"carol\" already exists");
        assertThat(error(sys, "CREATE ROLE public").state().code()).isEqualTo("42939");
        assertThat(error(sys, "CREATE ROLE pg_x").getMessage()).isEqualTo("role name \"pg_x\" is reserved");

        // A role may change its own password, nothing else.
        s.execute("ALTER ROLE materialize PASSWORD 'mine'");
        denied(s, "ALTER ROLE materialize CREATEROLE", "permission denied");
        denied(s, "ALTER ROLE bob PASSWORD 'x'", "permission denied");

        // In use: 2BP01 naming what depends on it.
        s.execute("CREATE TABLE t (a int)");
        s.execute("GRANT SELECT ON t TO carol");
        SqlException inUse = error(sys, "DROP ROLE carol");
        assertThat(inUse.state().code()).isEqualTo("2BP01");
        assertThat(inUse.getMessage()).isEqualTo("role \"carol\" cannot be dropped because some objects depend on it");
        assertThat(inUse.detail()).isEqualTo("privileges for table t");
        s.execute("REVOKE SELECT ON t FROM carol");
        assertThat(tag("DROP TABLE t")).isEqualTo("DROP TABLE");
        sys.execute("DROP ROLE IF EXISTS carol, nobody");
        assertThat(engine.roles().find("carol")).isEmpty();
        assertThat(error(sys, "DROP ROLE carol").state().code()).isEqualTo("42704");
        assertThat(error(sys, "DROP ROLE mz_system").state().code()).isEqualTo("2BP01");
    }

    @Test
    void passwordsAreStoredAsScramVerifiersAndNeverEchoed() {
        sys.execute("CREATE ROLE dave LOGIN PASSWORD 'hunter2'");
        String text = engine.coordinator().roles().security().role("dave").orElseThrow().verifier();
        assertThat(text).startsWith("SCRAM-SHA-256$").doesNotContain("hunter2");
        // A verifier given as the password is stored as is (as PostgreSQL does).
        String given = io.stillwater.engine.auth.ScramVerifier.derive("other").text();
        sys.execute("ALTER ROLE dave PASSWORD '" + given + "'");
        assertThat(engine.coordinator().roles().security().role("dave").orElseThrow().verifier()).isEqualTo(given);
        SqlException e = error(sys, "ALTER ROLE dave PASSWORD 'hunter2' 'again'");
        assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("again");
        sys.execute("ALTER ROLE dave PASSWORD NULL");
        assertThat(engine.roles().find("dave").orElseThrow().password()).isEmpty();
    }

    @Test
    void rolesOwnersAndGrantsSurviveRestart() {
        sys.execute("CREATE ROLE erin LOGIN CREATEROLE PASSWORD 'pw'");
        s.execute("CREATE TABLE t (a int)");
        s.execute("GRANT SELECT ON t TO bob");
        s.execute("CREATE CLUSTER mine (SIZE = '1')");
        String verifier = engine.coordinator().roles().security().role("erin").orElseThrow().verifier();
        reopen();
        var erin = engine.roles().find("erin").orElseThrow();
        assertThat(erin.canLogin()).isTrue();
        assertThat(erin.password().orElseThrow().text()).isEqualTo(verifier);
        assertThat(rows(bob.execute("SELECT count(*) FROM t"))).containsExactly(List.of("0"));
        denied(bob, "INSERT INTO t VALUES (1)", "permission denied for table t");
        denied(bob, "DROP TABLE t", "must be owner of table t");
        denied(bob, "DROP CLUSTER mine", "must be owner of cluster mine");
        denied(bob, "CREATE INDEX i IN CLUSTER mine ON t (a)", "must be owner of table t");
        s.execute("DROP CLUSTER mine");
    }

    @Test
    void clusterPrivileges() {
        s.execute("CREATE CLUSTER c1 (SIZE = '1')");
        bob.execute("CREATE TABLE bt (a int)");
        denied(bob, "CREATE INDEX IN CLUSTER c1 ON bt (a)", "permission denied for cluster c1");
        denied(bob, "CREATE MATERIALIZED VIEW bm IN CLUSTER c1 AS SELECT a FROM bt", "permission denied for cluster c1");
        s.execute("GRANT CREATE ON CLUSTER c1 TO bob");
        bob.execute("CREATE INDEX IN CLUSTER c1 ON bt (a)");
        assertThat(error(s, "GRANT SELECT ON CLUSTER c1 TO bob").state().code()).isEqualTo("0LP01");
        denied(bob, "DROP CLUSTER c1 CASCADE", "must be owner of cluster c1");
        denied(s, "DROP CLUSTER c1 CASCADE", "must be owner of index bt_a_idx");
        sys.execute("DROP CLUSTER c1 CASCADE");
    }

    @Test
    void objectsWithoutAnOwnerRecordStayOpenUntilOwned() {
        // Created through the coordinator's API (as by a version without roles): no owner entry.
        engine.coordinator().ddl().createTable("legacy", List.of(new io.stillwater.engine.catalog.ColumnDef("a",
                io.stillwater.engine.types.SqlType.INTEGER, false, null)), false);
        bob.execute("INSERT INTO legacy VALUES (1)");
        assertThat(q("SELECT a FROM legacy")).containsExactly(List.of("1"));
        sys.execute("ALTER TABLE legacy OWNER TO materialize");
        denied(bob, "SELECT * FROM legacy", "permission denied for table legacy");
        assertThat(q("SELECT a FROM legacy")).containsExactly(List.of("1"));
    }

    @Test
    void onlySuperusersAlterSystem() {
        denied(s, "ALTER SYSTEM SET max_connections = 50", "permission denied to alter system parameters");
        sys.execute("CREATE ROLE root SUPERUSER LOGIN");
        Session root = engine.connect("root", "materialize", Map.of());
        try {
            assertThat(root.execute("ALTER SYSTEM RESET max_connections")).isEqualTo(new ExecutionResult.Command("ALTER SYSTEM"));
        } finally {
            root.close();
        }
        assertThatThrownBy(() -> s.execute("CREATE ROLE x WITH LOGIN LOGIN")).isInstanceOf(SqlException.class)
                .hasMessage("conflicting or redundant options");
    }
}
