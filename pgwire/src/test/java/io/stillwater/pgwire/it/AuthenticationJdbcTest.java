package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.auth.AuthMethod;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.auth.TestRoles;
import io.stillwater.pgwire.clients.ClientProcess;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * Password authentication (SCRAM-SHA-256) end to end through pgjdbc, psql and psycopg2,
 * on a real engine whose roles come from {@link TestRoles} (alice/secret, mz_system/admin,
 * nopass without a password, nologin without LOGIN): the right password gets a session,
 * and every failure says only what PostgreSQL says.
 */
class AuthenticationJdbcTest {
    private static EmbeddedStillwater db;

    @BeforeAll
    static void start() {
        db = EmbeddedStillwater.withAuthentication(e -> Authentication.of(AuthMethod.SCRAM_SHA_256, new TestRoles()));
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private static Connection connect(String database, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        p.setProperty("connectTimeout", "60"); // a loaded machine may take longer than the default 10 s
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + db.port() + "/" + database, p);
    }

    private static PSQLException refused(String database, String user, String password) {
        try (Connection c = connect(database, user, password)) {
            throw new AssertionError("connected as " + user);
        } catch (PSQLException e) {
            return e;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theRightPasswordGetsASessionAsThatUser() throws Exception {
        try (Connection c = connect("materialize", "alice", "secret"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_user")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("alice");
        }
    }

    @Test
    void wrongPasswordUnknownRoleAndRoleWithoutPasswordLookTheSame() {
        for (String user : new String[] {"alice", "nosuchrole", "nopass"}) {
            PSQLException e = refused("materialize", user, "guess");
            assertThat(e.getSQLState()).as(user).isEqualTo("28P01");
            assertThat(e.getServerErrorMessage().getMessage())
                    .isEqualTo("password authentication failed for user \"" + user + "\"");
            assertThat(e.getServerErrorMessage().getDetail()).isNull();
            assertThat(e.getServerErrorMessage().getSeverity()).isEqualTo("FATAL");
        }
    }

    @Test
    void noPasswordIsRefusedByTheDriverBeforeItSendsAnything() {
        // pgjdbc refuses itself when the server asks for SCRAM and it has no password (08004).
        assertThatThrownBy(() -> connect("materialize", "alice", null).close())
                .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08004"));
    }

    @Test
    void aRoleWithoutLoginIsRefusedAfterAuthenticating() {
        PSQLException e = refused("materialize", "nologin", "secret");
        assertThat(e.getSQLState()).isEqualTo("28000");
        assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("role \"nologin\" is not permitted to log in");
        // With a wrong password nothing tells that the role exists without LOGIN.
        assertThat(refused("materialize", "nologin", "guess").getSQLState()).isEqualTo("28P01");
    }

    @Test
    void anotherDatabaseNameIs3D000AfterAuthenticating() {
        PSQLException e = refused("postgres", "alice", "secret");
        assertThat(e.getSQLState()).isEqualTo("3D000");
        assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("database \"postgres\" does not exist");
        assertThat(refused("postgres", "alice", "guess").getSQLState()).isEqualTo("28P01");
    }

    @Test
    void theSuperuserNeedsItsPasswordToo() throws Exception {
        assertThat(refused("materialize", "mz_system", "guess").getSQLState()).isEqualTo("28P01");
        try (Connection c = connect("materialize", "mz_system", "admin"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_user")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("mz_system");
        }
    }

    @Test
    void psqlConnectsWithThePasswordAndReportsAWrongOne() throws Exception {
        String ok = ClientProcess.psql(db.port(), "alice", "dbname=materialize password=secret", null,
                "-w", "-A", "-t", "-c", "SELECT current_user").ok();
        assertThat(ok.strip()).isEqualTo("alice");
        ClientProcess.Result wrong = ClientProcess.psql(db.port(), "alice", "dbname=materialize password=guess", null,
                "-w", "-c", "SELECT 1");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err()).contains("FATAL:  password authentication failed for user \"alice\"");
        ClientProcess.Result none = ClientProcess.psql(db.port(), "alice", "materialize", null, "-w", "-c", "SELECT 1");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("no password supplied");
        ClientProcess.Result otherDb = ClientProcess.psql(db.port(), "alice", "dbname=alice password=secret", null,
                "-w", "-c", "SELECT 1");
        assertThat(otherDb.err()).contains("FATAL:  database \"alice\" does not exist");
    }

    @Test
    void psycopg2ConnectsWithThePasswordAndGetsTheSqlstateOfAWrongOne() throws Exception {
        String script = """
                import os, psycopg2
                c = psycopg2.connect(os.environ['DSN'] + ' password=secret')
                cur = c.cursor(); cur.execute('SELECT current_user'); print(cur.fetchone()[0])
                try:
                    psycopg2.connect(os.environ['DSN'] + ' password=guess')
                except psycopg2.OperationalError as e:
                    print(str(e).strip().splitlines()[-1])
                """;
        String out = ClientProcess.psycopg2(db.port(), "alice", "materialize", script).ok();
        assertThat(out).contains("alice").contains("password authentication failed for user \"alice\"");
    }
}
