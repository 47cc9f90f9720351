package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;
import picocli.CommandLine;

/**
 * Authentication against the role catalog through a real {@code serve}: the bootstrap
 * password file gives mz_system its first password, roles created with PASSWORD log in by
 * SCRAM-SHA-256 (also after a restart), a wrong password is 28P01, a role without LOGIN
 * is 28000 after a correct password, and a changed password replaces the old one.
 */
class ServeRolesAuthenticationTest {
    @Test
    void bootstrapThenCreateRoleWithPasswordThenScramLogin(@TempDir Path dir) throws Exception {
        Path pw = Files.writeString(dir.resolve("pw"), "admin pw\n");
        for (int run = 0; run < 2; run++) {
            ServeCommand serve = new ServeCommand();
            new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString(), "--no-fsync",
                    "--auth", "scram-sha-256", "--bootstrap-superuser-password-file", pw.toString());
            try (ServeCommand.Running running = serve.start()) {
                String url = "jdbc:postgresql://127.0.0.1:" + running.port() + "/materialize?connectTimeout=60";
                assertThatThrownBy(() -> DriverManager.getConnection(url, "mz_system", "wrong").close())
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
                try (Connection c = DriverManager.getConnection(url, "mz_system", "admin pw"); Statement s = c.createStatement()) {
                    if (run == 0) {
                        s.execute("CREATE ROLE bob LOGIN PASSWORD 'bob pw'");
                        s.execute("CREATE ROLE carol PASSWORD 'carol pw'");
                    }
                    try (ResultSet rs = s.executeQuery("SELECT rolpassword FROM pg_roles WHERE rolname = 'bob'")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo("********"); // never the password or its verifier
                    }
                }
                try (Connection c = DriverManager.getConnection(url, "bob", "bob pw"); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT current_user")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("bob");
                }
                assertThatThrownBy(() -> DriverManager.getConnection(url, "bob", "nope").close())
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
                assertThatThrownBy(() -> DriverManager.getConnection(url, "carol", "carol pw").close())
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28000"));
                if (run == 1) {
                    try (Connection c = DriverManager.getConnection(url, "bob", "bob pw"); Statement s = c.createStatement()) {
                        s.execute("ALTER ROLE bob PASSWORD 'bob new pw'"); // a role may change its own password
                    }
                    assertThatThrownBy(() -> DriverManager.getConnection(url, "bob", "bob pw").close())
                            .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
                    DriverManager.getConnection(url, "bob", "bob new pw").close();
                }
            }
        }
    }
}
