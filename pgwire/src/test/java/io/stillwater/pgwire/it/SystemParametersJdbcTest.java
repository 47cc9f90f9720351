package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.EngineConfig;
import io.stillwater.pgwire.PgServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/** System parameters over the wire: ALTER SYSTEM as mz_system and others, SHOW, and max_connections. */
class SystemParametersJdbcTest {
    @TempDir
    Path dir;
    Engine engine;
    PgServer server;

    @BeforeEach
    void start() {
        engine = Engine.open(new EngineConfig(dir, false, 1).withSystemParameterDefaults(Map.of("max_connections", "2")));
        server = new PgServer(engine::connect).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
        engine.close();
    }

    private Connection connect(String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize", p);
    }

    private static String show(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + name)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    /** Waits (bounded) until {@code condition} holds: sessions close on the server after the client's Terminate. */
    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("condition not reached in 30s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    @Test
    void connectionsBeyondMaxConnectionsAreRefusedWith53300() throws Exception {
        try (Connection a = connect("alice"); Connection b = connect("bob")) {
            assertThat(show(a, "max_connections")).isEqualTo("2");
            assertThatThrownBy(() -> connect("carol").close()).isInstanceOfSatisfying(PSQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("53300");
                assertThat(e.getMessage()).contains(
                        "creating connection would violate max_connections limit (desired: 3, limit: 2, current: 2)");
            });
            try (Connection admin = connect("mz_system"); Statement st = admin.createStatement()) {
                st.execute("ALTER SYSTEM SET max_connections = 3");
                try (Connection c = connect("carol")) {
                    assertThat(show(c, "max_connections")).isEqualTo("3");
                }
            }
        }
        await(() -> engine.openSessions() == 0);
        try (Connection a = connect("alice")) {
            assertThat(show(a, "max_connections")).isEqualTo("3");
        }
    }

    @Test
    void onlyMzSystemMayAlterSystem() throws Exception {
        try (Connection alice = connect("alice"); Statement st = alice.createStatement()) {
            assertThatThrownBy(() -> st.execute("ALTER SYSTEM SET max_result_size = '10MB'"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42501");
                        assertThat(e.getMessage()).contains("permission denied to alter system parameters");
                    });
        }
        try (Connection admin = connect("mz_system"); Statement st = admin.createStatement()) {
            assertThat(st.execute("ALTER SYSTEM SET max_result_size = '10MB'")).isFalse();
            assertThat(show(admin, "max_result_size")).isEqualTo("10MB");
            assertThatThrownBy(() -> st.execute("ALTER SYSTEM SET max_result_size = 'huge'"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"));
            assertThatThrownBy(() -> st.execute("ALTER SYSTEM SET nope = 1"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42704"));
        }
    }
}
