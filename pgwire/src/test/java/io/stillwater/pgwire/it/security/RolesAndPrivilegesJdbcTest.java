package io.stillwater.pgwire.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.pgwire.PgServer;
import io.stillwater.pgwire.clients.ClientProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * Roles and privileges end to end through pgjdbc (and psql for \du and \dp), with
 * trust authentication: {@code alice} and {@code bob} are created on first connection,
 * {@code mz_system} is the superuser.
 */
class RolesAndPrivilegesJdbcTest {
    @TempDir
    Path dir;
    Engine engine;
    PgServer server;

    @BeforeEach
    void start() {
        engine = Engine.open(new EngineConfig(dir, false, 1));
        server = new PgServer(engine::connect).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
        engine.close();
    }

    private void restart() {
        stop();
        start();
    }

    private Connection connect(String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize", p);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    private static void denied(Connection c, String sql, String message) {
        assertThatThrownBy(() -> exec(c, sql)).as(sql).isInstanceOfSatisfying(PSQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42501");
            assertThat(e.getServerErrorMessage().getMessage()).isEqualTo(message);
        });
    }

    @Test
    void everyStatementKindNeedsItsPrivilege() throws SQLException {
        try (Connection alice = connect("alice"); Connection bob = connect("bob")) {
            exec(alice, "CREATE TABLE t (a int, b text)");
            exec(alice, "INSERT INTO t VALUES (1, 'one')");
            exec(alice, "CREATE VIEW v AS SELECT a FROM t");
            exec(alice, "CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t");

            denied(bob, "SELECT * FROM t", "permission denied for table t");
            denied(bob, "SELECT * FROM v", "permission denied for view v");
            denied(bob, "SELECT * FROM m", "permission denied for materialized view m");
            denied(bob, "INSERT INTO t VALUES (2, 'two')", "permission denied for table t");
            denied(bob, "UPDATE t SET b = 'x' WHERE a = 1", "permission denied for table t");
            denied(bob, "DELETE FROM t", "permission denied for table t");
            denied(bob, "TRUNCATE t", "permission denied for table t");
            denied(bob, "COPY t TO STDOUT", "permission denied for table t");
            denied(bob, "CREATE VIEW bv AS SELECT * FROM t", "permission denied for table t");
            denied(bob, "CREATE INDEX ON t ((1 / 0))", "must be owner of table t");
            denied(bob, "DROP TABLE t", "must be owner of table t");
            denied(bob, "DROP VIEW v", "must be owner of view v");
            denied(bob, "DROP MATERIALIZED VIEW m", "must be owner of materialized view m");
            denied(bob, "ALTER TABLE t OWNER TO bob", "must be owner of table t");
            denied(bob, "GRANT SELECT ON t TO bob", "permission denied for table t");

            // Granting on the view is enough to read it: it reads t with alice's privileges.
            exec(alice, "GRANT SELECT ON v TO bob");
            assertThat(column(bob, "SELECT a FROM v")).containsExactly("1");
            denied(bob, "SELECT * FROM t", "permission denied for table t");

            // A prepared statement is checked when it executes: a REVOKE in between counts.
            exec(alice, "GRANT SELECT, UPDATE ON t TO bob");
            try (PreparedStatement ps = bob.prepareStatement("SELECT b FROM t WHERE a = ?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("one");
                }
                exec(bob, "UPDATE t SET b = 'uno' WHERE a = 1");
                exec(alice, "REVOKE SELECT ON t FROM bob");
                assertThatThrownBy(ps::executeQuery).isInstanceOfSatisfying(PSQLException.class,
                        e -> assertThat(e.getSQLState()).isEqualTo("42501"));
            }
            // UPDATE with a WHERE reads the table: it needs SELECT too, as in PostgreSQL.
            denied(bob, "UPDATE t SET b = 'x' WHERE a = 1", "permission denied for table t");
            assertThat(column(alice, "SELECT b FROM t")).containsExactly("uno");
        }
    }

    @Test
    void superuserOnlyStatementsAndRoleAttributes() throws SQLException {
        try (Connection sys = connect("mz_system"); Connection alice = connect("alice")) {
            denied(alice, "ALTER SYSTEM SET max_connections = 10", "permission denied to alter system parameters");
            denied(alice, "CREATE ROLE boss SUPERUSER", "must be superuser to create superusers");
            denied(alice, "CREATE ROLE helper", "permission denied to create role");
            exec(sys, "CREATE ROLE ops WITH LOGIN CREATEROLE PASSWORD 'ops-secret'");
            exec(sys, "CREATE ROLE reader NOLOGIN");
            assertThat(column(alice, "SELECT rolname || ':' || rolsuper || ':' || rolcreaterole || ':' || rolcanlogin"
                    + " FROM pg_roles WHERE rolname IN ('ops', 'reader', 'mz_system', 'alice') ORDER BY rolname"))
                    .containsExactly("alice:false:false:true", "mz_system:true:true:true", "ops:false:true:true",
                            "reader:false:false:false");
            assertThat(column(alice, "SELECT name FROM mz_roles WHERE name = 'ops'")).containsExactly("ops");
            // Passwords never show: ******** in pg_roles, nothing in pg_authid.
            assertThat(column(alice, "SELECT rolpassword FROM pg_roles WHERE rolname = 'ops'")).containsExactly("********");
            assertThat(column(sys, "SELECT rolpassword FROM pg_authid WHERE rolname = 'ops'")).containsExactly((String) null);
            assertThat(column(alice, "SELECT usename FROM pg_user WHERE usename = 'reader'")).isEmpty();
            assertThatThrownBy(() -> exec(sys, "CREATE ROLE ops PASSWORD 'ops-secret'"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42710");
                        assertThat(e.getMessage()).doesNotContain("ops-secret");
                    });
        }
    }

    @Test
    void restartKeepsRolesPasswordsOwnersAndGrants() throws SQLException {
        try (Connection sys = connect("mz_system"); Connection alice = connect("alice")) {
            exec(sys, "CREATE USER carol PASSWORD 'pw' CREATEROLE");
            exec(alice, "CREATE TABLE t (a int)");
            exec(alice, "GRANT SELECT ON t TO carol");
        }
        String verifier = engine.roles().find("carol").orElseThrow().password().orElseThrow().text();
        restart();
        assertThat(engine.roles().find("carol").orElseThrow().password().orElseThrow().text()).isEqualTo(verifier);
        try (Connection carol = connect("carol"); Connection bob = connect("bob")) {
            assertThat(column(carol, "SELECT count(*) FROM t")).containsExactly("0");
            denied(carol, "INSERT INTO t VALUES (1)", "permission denied for table t");
            denied(carol, "DROP TABLE t", "must be owner of table t");
            denied(bob, "SELECT * FROM t", "permission denied for table t");
            assertThat(column(carol, "SELECT rolcreaterole::text FROM pg_roles WHERE rolname = 'carol'")).containsExactly("true");
        }
    }

    @Test
    void psqlListsRoles() throws Exception {
        try (Connection sys = connect("mz_system")) {
            exec(sys, "CREATE ROLE ops WITH LOGIN CREATEROLE");
            exec(sys, "CREATE ROLE reader");
        }
        String du = ClientProcess.psql(server.boundPort(), "mz_system", "materialize", "", "-c", "\\du").ok();
        // PostgreSQL 15's \du lines for these attributes.
        assertThat(du).contains(" mz_system | Superuser, Create role, Bypass RLS")
                .contains(" ops       | Create role")
                .contains(" reader    | Cannot login");
    }
}
