package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
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

/**
 * System parameters over the wire: ALTER SYSTEM as mz_system and others, SHOW, and
 * max_connections with superuser_reserved_connections.
 */
class SystemParametersJdbcTest {
    @TempDir
    Path dir;
    Engine engine;
    PgServer server;

    @BeforeEach
    void start() {
        engine = Engine.open(new EngineConfig(dir, false, 1).withSystemParameterDefaults(
                Map.of("max_connections", "5", "superuser_reserved_connections", "2")));
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

    private static void assertRefused(ThrowingConnect connect, String message) {
        assertThatThrownBy(connect::open).isInstanceOfSatisfying(PSQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("53300");
            assertThat(e.getServerErrorMessage().getMessage()).isEqualTo(message);
            assertThat(e.getServerErrorMessage().getSeverity()).isEqualTo("FATAL");
        });
    }

    private interface ThrowingConnect { void open() throws SQLException; }

    @Test
    void ordinaryUsersLeaveReservedSlotsToTheSuperuserWhoIsCountedToo() throws Exception {
        String reserved = "remaining connection slots are reserved for roles with the SUPERUSER attribute";
        try (Connection a = connect("alice"); Connection b = connect("bob"); Connection c = connect("carol")) {
            assertThat(show(a, "max_connections")).isEqualTo("5");
            assertThat(show(a, "superuser_reserved_connections")).isEqualTo("2");
            assertRefused(() -> connect("dave").close(), reserved);
            try (Connection admin1 = connect("mz_system"); Connection admin2 = connect("mz_system")) {
                assertThat(engine.openSessions()).isEqualTo(5);
                assertRefused(() -> connect("mz_system").close(), "sorry, too many clients already");
                assertRefused(() -> connect("dave").close(), reserved);
                try (Statement st = admin1.createStatement()) {
                    st.execute("ALTER SYSTEM SET max_connections = 6");
                }
                try (Connection admin3 = connect("mz_system")) {
                    assertThat(show(admin3, "is_superuser")).isEqualTo("on");
                }
                try (Statement st = admin1.createStatement()) {
                    st.execute("ALTER SYSTEM RESET max_connections"); // back to the startup default, 5
                }
            }
            await(() -> engine.openSessions() == 3);
            assertRefused(() -> connect("dave").close(), reserved);
        }
        // Closing frees the slots (the server closes sessions after the client's Terminate).
        await(() -> engine.openSessions() == 0);
        try (Connection d = connect("dave"); Connection e = connect("erin"); Connection f = connect("frank")) {
            assertThat(show(d, "max_connections")).isEqualTo("5");
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
