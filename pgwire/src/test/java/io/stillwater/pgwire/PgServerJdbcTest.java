package io.stillwater.pgwire;

import org.postgresql.PGStatement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;

/** pgjdbc, a real client, against the server with {@link CannedSession}s. */
class PgServerJdbcTest {
    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory()).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Connection connect(String extra) throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize?user=alice" + extra;
        return DriverManager.getConnection(url, new Properties());
    }

    @Test
    void connectsAndReportsServerParameters() throws Exception {
        try (Connection c = connect("&ApplicationName=wiretest&assumeMinServerVersion=10")) {
            assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith("15.0");
            PGConnection pg = c.unwrap(PGConnection.class);
            assertThat(pg.getParameterStatus("server_encoding")).isEqualTo("UTF8");
            assertThat(pg.getParameterStatus("application_name")).isEqualTo("wiretest");
            assertThat(pg.getParameterStatus("TimeZone")).isEqualTo("UTC");
            assertThat(pg.getBackendPID()).isPositive();
        }
        assertThat(probe.users).containsExactly("alice");
        assertThat(probe.databases).containsExactly("materialize");
        assertThat(probe.startupOptions.peek()).containsEntry("application_name", "wiretest");
    }

    @Test
    void simpleQueryProtocol() throws Exception {
        try (Connection c = connect("&preferQueryMode=simple"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 42")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.INTEGER);
                assertThat(rs.next()).isFalse();
            }
            assertThat(s.execute("SELECT 1; CREATE TABLE t (a int); SELECT 2")).isTrue();
            List<Object> results = new ArrayList<>();
            do {
                ResultSet rs = s.getResultSet();
                if (rs != null) {
                    rs.next();
                    results.add(rs.getInt(1));
                } else {
                    results.add("count " + s.getUpdateCount());
                }
            } while (s.getMoreResults() || s.getUpdateCount() != -1);
            assertThat(results).containsExactly(1, "count 0", 2);
            assertThat(s.executeUpdate("INSERT INTO t VALUES (1)")).isEqualTo(1);
        }
    }

    @Test
    void extendedProtocolWithServerSidePreparedStatementsAndBinaryParameters() throws Exception {
        try (Connection c = connect("&prepareThreshold=1");
             PreparedStatement ps = c.prepareStatement("SELECT ?, ?, ?, ?, ?, ?, ?, ?")) {
            for (int round = 0; round < 3; round++) {
                ps.setInt(1, 7 + round);
                ps.setLong(2, -9_000_000_000L);
                ps.setShort(3, (short) 12);
                ps.setDouble(4, 2.5);
                ps.setFloat(5, -0.75f);
                ps.setString(6, "snow ☃ " + round);
                ps.setBytes(7, new byte[] {1, 2, (byte) 0xFE});
                ps.setNull(8, Types.INTEGER);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(7 + round);
                    assertThat(rs.getLong(2)).isEqualTo(-9_000_000_000L);
                    assertThat(rs.getShort(3)).isEqualTo((short) 12);
                    assertThat(rs.getDouble(4)).isEqualTo(2.5);
                    assertThat(rs.getFloat(5)).isEqualTo(-0.75f);
                    assertThat(rs.getString(6)).isEqualTo("snow ☃ " + round);
                    assertThat(rs.getBytes(7)).containsExactly(1, 2, (byte) 0xFE);
                    assertThat(rs.getObject(8)).isNull();
                    assertThat(rs.next()).isFalse();
                }
            }
            assertThat(ps.unwrap(PGStatement.class).isUseServerPrepare()).isTrue();
        }
    }

    @Test
    void binaryResultsOfEveryCommonType() throws Exception {
        // prepareThreshold=-1 makes pgjdbc describe first and ask for binary results from the start.
        try (Connection c = connect("&prepareThreshold=-1");
             PreparedStatement ps = c.prepareStatement("SELECT typed")) {
            for (int round = 0; round < 2; round++) {
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getShort("i2")).isEqualTo((short) -7);
                    assertThat(rs.getInt("i4")).isEqualTo(123456);
                    assertThat(rs.getLong("i8")).isEqualTo(9_000_000_000L);
                    assertThat(rs.getFloat("f4")).isEqualTo(1.5f);
                    assertThat(rs.getDouble("f8")).isEqualTo(-2.25);
                    assertThat(rs.getBigDecimal("num")).isEqualTo(new BigDecimal("-12345.678"));
                    assertThat(rs.getString("txt")).isEqualTo("héllo");
                    assertThat(rs.getString("vc")).isEqualTo("abc");
                    assertThat(rs.getObject("d", LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
                    assertThat(rs.getObject("t", LocalTime.class)).isEqualTo(LocalTime.of(13, 14, 15, 123_456_000));
                    assertThat(rs.getObject("ts", LocalDateTime.class))
                            .isEqualTo(LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000));
                    assertThat(rs.getObject("tstz", OffsetDateTime.class).toInstant())
                            .isEqualTo(OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000, ZoneOffset.UTC).toInstant());
                    assertThat(rs.getBytes("by")).containsExactly(0, 1, (byte) 0xFF);
                    rs.getInt("nothing");
                    assertThat(rs.wasNull()).isTrue();
                    var md = rs.getMetaData();
                    assertThat(md.getColumnTypeName(7)).isEqualTo("numeric");
                    assertThat(md.getPrecision(7)).isEqualTo(10);
                    assertThat(md.getScale(7)).isEqualTo(3);
                    assertThat(md.getColumnTypeName(9)).isEqualTo("varchar");
                    assertThat(md.getPrecision(9)).isEqualTo(5);
                }
            }
        }
    }

    @Test
    void fetchSizeInsideATransactionPagesThroughASuspendedPortal() throws Exception {
        try (Connection c = connect("")) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(3);
                List<Integer> seen = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT * FROM series(10)")) {
                    while (rs.next()) seen.add(rs.getInt(1));
                }
                assertThat(seen).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            }
            c.commit();
        }
    }

    @Test
    void errorsCarryTheirSqlStateAndTheConnectionRecovers() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT 1/0"))
                    .isInstanceOf(PSQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22012"))
                    .hasMessageContaining("division by zero");
            assertThatThrownBy(() -> s.executeQuery("FROB"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
            try (ResultSet rs = s.executeQuery("SELECT 5")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(5);
            }
            c.setAutoCommit(false);
            assertThatThrownBy(() -> s.executeQuery("SELECT 1/0"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22012"));
            assertThatThrownBy(() -> s.executeQuery("SELECT 5"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));
            c.rollback();
            try (ResultSet rs = s.executeQuery("SELECT 6")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(6);
            }
        }
    }

    @Test
    void unknownDatabaseIsAFatalStartupError() {
        String url = "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/nosuchdb?user=alice";
        assertThatThrownBy(() -> DriverManager.getConnection(url))
                .isInstanceOf(PSQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("3D000"));
    }

    @Test
    void cancelStopsTheRunningStatementWhileOtherConnectionsKeepWorking() throws Exception {
        try (Connection slow = connect(""); Statement s = slow.createStatement(); Connection other = connect("")) {
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
                try {
                    s.executeQuery("SELECT slow");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            assertThat(probe.slowStarted.tryAcquire(30, TimeUnit.SECONDS)).isTrue();

            // The slow statement blocks only its own connection.
            try (Statement o = other.createStatement(); ResultSet rs = o.executeQuery("SELECT 8")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(8);
            }

            s.cancel();
            Throwable failure = outcome.get(30, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(PSQLException.class);
            assertThat(((SQLException) failure).getSQLState()).isEqualTo("57014");

            try (ResultSet rs = s.executeQuery("SELECT 9")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(9);
            }
        }
    }

    @Test
    void parameterChangesAreReportedWithParameterStatus() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.execute("SET application_name = 'renamed'");
            assertThat(c.unwrap(PGConnection.class).getParameterStatus("application_name")).isEqualTo("renamed");
        }
    }

    @Test
    void closingTheConnectionClosesTheSession() throws Exception {
        Connection c = connect("");
        c.close();
        assertThat(probe.firstClosed.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(probe.closed.get()).isEqualTo(1);
        assertThat(server.cancelRegistry().size()).isZero();
    }

    @Test
    void selectNullIsReportedAsText() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT NULL")) {
            assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("text");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isNull();
        }
    }

    @Test
    void largeResultsStreamCompletely() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM series(200000)")) {
            long count = 0;
            long sum = 0;
            while (rs.next()) {
                count++;
                sum += rs.getInt(1);
            }
            assertThat(count).isEqualTo(200_000);
            assertThat(sum).isEqualTo(200_000L * 200_001 / 2);
        }
    }
}
