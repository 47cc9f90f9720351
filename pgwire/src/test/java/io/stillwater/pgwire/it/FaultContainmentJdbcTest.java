package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.FaultPoints.Point;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * Fault containment through pgjdbc on a real engine: a fault injected into the write
 * path ({@link Point#WRITE}, under the coordinator's write lock) or a read
 * ({@link Point#PEEK}) fails only the statement that hit it, with 53200 for an
 * OutOfMemoryError and XX000 for anything else and no Java text; afterwards that
 * session and every other one (some inside explicit transactions) keep working, the
 * write lock is free, and a failed write left nothing behind.
 */
class FaultContainmentJdbcTest {
    static EmbeddedStillwater db;

    /** The faults injected, each with the SQLSTATE the client must see. */
    private record Fault(String name, Supplier<Throwable> make, String sqlState) {}

    private static final List<Fault> FAULTS = List.of(
            new Fault("OutOfMemoryError", () -> new OutOfMemoryError("Java heap space"), "53200"),
            new Fault("RuntimeException", () -> new IllegalStateException("java.lang.IllegalStateException: boom"), "XX000"),
            new Fault("AssertionError", () -> new AssertionError("invariant broken"), "XX000"));

    private Connection victim;
    private Connection bystander;
    private Connection reader; // inside an explicit read transaction
    private Connection writer; // inside an explicit write transaction
    /** Values written so far are below this; every write uses fresh ones so tests sharing the table stay apart. */
    private static int nextValue = 1000;

    @BeforeAll
    static void start() throws SQLException {
        db = new EmbeddedStillwater();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a int)");
            s.execute("INSERT INTO t VALUES (1)");
        }
    }

    @AfterAll
    static void stop() { db.close(); }

    @BeforeEach
    void open() throws SQLException {
        victim = db.connect();
        bystander = db.connect();
        reader = db.connect();
        reader.setAutoCommit(false);
        assertThat(count(reader, "SELECT count(*) FROM t WHERE a = 1")).isEqualTo(1);
        writer = db.connect();
        writer.setAutoCommit(false);
    }

    @AfterEach
    void close() throws SQLException {
        FaultPoints.disarmAll();
        for (Connection c : List.of(victim, bystander, reader, writer)) c.close();
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static void assertFails(Fault fault, ThrowingRun run) {
        assertThatThrownBy(run::run).as(fault.name()).isInstanceOfSatisfying(PSQLException.class, e -> {
            assertThat(e.getSQLState()).as(fault.name()).isEqualTo(fault.sqlState());
            var server = e.getServerErrorMessage();
            for (String text : new String[] {server.getMessage(), server.getDetail(), server.getHint()}) {
                assertThat(String.valueOf(text)).doesNotContain("java.", "Exception", "Error:", "boom", "invariant");
            }
            assertThat(server.getMessage()).matches("out of memory|internal error \\(error id [0-9a-f]{8}\\)");
        });
    }

    private interface ThrowingRun { void run() throws Exception; }

    /** Every session works: the victim reads, another session writes (the write lock is free), the transactions go on. */
    private void assertEverySessionWorks(int writtenByBystander) throws Exception {
        assertThat(count(victim, "SELECT count(*) FROM t WHERE a = 1")).isEqualTo(1);
        CompletableFuture<Integer> write = CompletableFuture.supplyAsync(() -> {
            try (Statement s = bystander.createStatement()) {
                return s.executeUpdate("INSERT INTO t VALUES (" + writtenByBystander + ")");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(write.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(count(reader, "SELECT count(*) FROM t WHERE a = 1")).isEqualTo(1);
        reader.commit();
        try (Statement s = writer.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (" + (writtenByBystander + 1) + ")");
        }
        writer.commit();
        assertThat(count(victim, "SELECT count(*) FROM t WHERE a IN (" + writtenByBystander + ", "
                + (writtenByBystander + 1) + ")")).isEqualTo(2);
    }

    @Test
    void aFaultInTheWritePathFailsOnlyThatInsertAndLeavesNoRow() throws Exception {
        for (Fault fault : FAULTS) {
            int value = nextValue += 10;
            FaultPoints.arm(Point.WRITE, fault.make());
            assertFails(fault, () -> victim.createStatement().executeUpdate("INSERT INTO t VALUES (" + value + ")"));
            assertThat(FaultPoints.armed(Point.WRITE)).isFalse();
            assertThat(count(victim, "SELECT count(*) FROM t WHERE a = " + value)).as(fault.name()).isZero();
            assertEverySessionWorks(value + 1);
        }
    }

    @Test
    void aFaultInAReadFailsOnlyThatSelect() throws Exception {
        for (Fault fault : FAULTS) {
            FaultPoints.arm(Point.PEEK, fault.make());
            assertFails(fault, () -> count(victim, "SELECT count(*) FROM t"));
            assertThat(FaultPoints.armed(Point.PEEK)).isFalse();
            assertEverySessionWorks(nextValue += 10);
        }
    }

    @Test
    void aFaultAtTheCommitOfAnExplicitWriteTransactionLeavesNoneOfItsRows() throws Exception {
        for (Fault fault : FAULTS) {
            int value = nextValue += 10;
            victim.setAutoCommit(false);
            try (Statement s = victim.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (" + value + ")");
                s.executeUpdate("INSERT INTO t VALUES (" + value + ")");
            }
            FaultPoints.arm(Point.WRITE, fault.make());
            assertFails(fault, victim::commit);
            victim.rollback();
            victim.setAutoCommit(true);
            assertThat(count(victim, "SELECT count(*) FROM t WHERE a = " + value)).as(fault.name()).isZero();
            assertEverySessionWorks(value + 1);
        }
    }

    @Test
    void aFaultUnderTheExtendedProtocolFailsThatExecuteAndThePreparedStatementRunsAgain() throws Exception {
        Properties serverSide = new Properties();
        serverSide.setProperty("prepareThreshold", "-1");
        try (Connection c = db.connect(serverSide);
             PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?)");
             PreparedStatement select = c.prepareStatement("SELECT count(*) FROM t WHERE a = ?")) {
            for (Fault fault : FAULTS) {
                int value = nextValue += 10;
                insert.setInt(1, value);
                FaultPoints.arm(Point.WRITE, fault.make());
                assertFails(fault, insert::executeUpdate);
                select.setInt(1, value);
                FaultPoints.arm(Point.PEEK, fault.make());
                assertFails(fault, () -> select.executeQuery().close());
                assertThat(insert.executeUpdate()).isEqualTo(1);
                try (ResultSet rs = select.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).as(fault.name()).isEqualTo(1);
                }
                assertEverySessionWorks(value + 1);
            }
        }
    }

    @Test
    void aFaultInAMultiStatementSimpleQueryStopsItThere() throws Exception {
        Properties simple = new Properties();
        simple.setProperty("preferQueryMode", "simple");
        try (Connection c = db.connect(simple)) {
            for (Fault fault : FAULTS) {
                int value = nextValue += 10;
                FaultPoints.arm(Point.WRITE, fault.make());
                assertFails(fault, () -> c.createStatement().execute(
                        "INSERT INTO t VALUES (" + value + "); INSERT INTO t VALUES (" + (value + 1) + ")"));
                assertThat(count(c, "SELECT count(*) FROM t WHERE a IN (" + value + ", " + (value + 1) + ")"))
                        .as(fault.name()).isZero();
                assertEverySessionWorks(value + 2);
            }
        }
    }
}
