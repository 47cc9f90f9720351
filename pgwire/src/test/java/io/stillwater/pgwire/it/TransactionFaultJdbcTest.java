package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.FaultPoints.Point;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.util.PSQLException;

/**
 * The statement boundary inside explicit transactions, through pgjdbc: an Error thrown
 * while a statement runs (an OutOfMemoryError, an AssertionError) fails the transaction
 * exactly as a SQL error does. The failing statement gets 53200 (XX000 for the
 * AssertionError) with no Java text, ReadyForQuery then says 'E' (pgjdbc's
 * {@link TransactionState#FAILED}), every further statement gets 25P02 until ROLLBACK,
 * and after ROLLBACK the session works. A failing COMMIT ends its transaction (as in
 * PostgreSQL), writing nothing.
 */
class TransactionFaultJdbcTest {
    static EmbeddedStillwater db;
    private Connection c;

    @BeforeAll
    static void start() throws SQLException {
        db = new EmbeddedStillwater();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a int)");
            s.execute("INSERT INTO t VALUES (1), (2)");
        }
    }

    @AfterAll
    static void stop() { db.close(); }

    @BeforeEach
    void open() throws SQLException {
        c = db.connect();
        c.setAutoCommit(false); // pgjdbc sends BEGIN before the first statement
    }

    @AfterEach
    void close() throws SQLException {
        FaultPoints.disarmAll();
        c.close();
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private TransactionState state() { return ((BaseConnection) c).getTransactionState(); }

    private static void assertState(String sqlState, ThrowingRun run) {
        assertThatThrownBy(run::run).isInstanceOfSatisfying(PSQLException.class, e -> {
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(sqlState);
            var server = e.getServerErrorMessage();
            for (String text : new String[] {server.getMessage(), server.getDetail(), server.getHint()}) {
                assertThat(String.valueOf(text)).doesNotContain("java.", "Exception", "Error:", "heap space", "invariant");
            }
        });
    }

    private interface ThrowingRun { void run() throws Exception; }

    /** After a failed statement: 25P02 for anything until ROLLBACK, then the session works. */
    private void assertFailedUntilRollback() throws SQLException {
        assertThat(state()).isEqualTo(TransactionState.FAILED);
        assertState("25P02", () -> count(c, "SELECT count(*) FROM t"));
        assertState("25P02", () -> c.createStatement().executeUpdate("INSERT INTO t VALUES (99)"));
        assertThat(state()).isEqualTo(TransactionState.FAILED);
        c.rollback();
        assertThat(state()).isEqualTo(TransactionState.IDLE);
        assertThat(count(c, "SELECT count(*) FROM t WHERE a IN (1, 2)")).isEqualTo(2);
        c.commit();
        assertThat(count(c, "SELECT count(*) FROM t WHERE a = 99")).isZero();
        c.commit();
    }

    @Test
    void anOutOfMemoryErrorInAReadFailsTheTransaction() throws SQLException {
        assertThat(count(c, "SELECT count(*) FROM t WHERE a IN (1, 2)")).isEqualTo(2); // the transaction has read
        assertThat(state()).isEqualTo(TransactionState.OPEN);
        FaultPoints.arm(Point.PEEK, () -> new OutOfMemoryError("Java heap space"));
        assertState("53200", () -> count(c, "SELECT count(*) FROM t WHERE a > 0"));
        assertThat(FaultPoints.armed(Point.PEEK)).isFalse();
        assertFailedUntilRollback();
    }

    @Test
    void anOutOfMemoryErrorInTheFirstReadOfATransactionFailsIt() throws SQLException {
        FaultPoints.arm(Point.PEEK, () -> new OutOfMemoryError("Java heap space"));
        assertState("53200", () -> count(c, "SELECT count(*) FROM t"));
        assertFailedUntilRollback();
    }

    @Test
    void anAssertionErrorInAReadFailsTheTransactionWithAnErrorId() throws SQLException {
        assertThat(count(c, "SELECT count(*) FROM t WHERE a IN (1, 2)")).isEqualTo(2);
        FaultPoints.arm(Point.PEEK, () -> new AssertionError("invariant broken"));
        assertThatThrownBy(() -> count(c, "SELECT count(*) FROM t WHERE a > 0"))
                .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getServerErrorMessage().getMessage())
                        .matches("internal error \\(error id [0-9a-f]{8}\\)"));
        assertFailedUntilRollback();
    }

    @Test
    void aFailedStatementAfterAWriteFailsTheTransactionAndItsWritesAreDropped() throws SQLException {
        try (Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (99)")).isEqualTo(1);
        }
        // A plain SQL error after the write fails the transaction the same way.
        assertState("22012", () -> count(c, "SELECT count(*) FROM t WHERE a / 0 = 1"));
        assertFailedUntilRollback();
    }

    @Test
    void anOutOfMemoryErrorWhileCommittingEndsTheTransactionWithoutItsWrites() throws SQLException {
        try (Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (99)")).isEqualTo(1);
        }
        FaultPoints.arm(Point.WRITE, () -> new OutOfMemoryError("Java heap space"));
        assertState("53200", c::commit);
        assertThat(FaultPoints.armed(Point.WRITE)).isFalse();
        // As in PostgreSQL, a COMMIT that fails has ended the transaction: nothing to roll back.
        assertThat(state()).isEqualTo(TransactionState.IDLE);
        assertThat(count(c, "SELECT count(*) FROM t WHERE a = 99")).isZero();
        c.commit();
        try (Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (98)")).isEqualTo(1);
        }
        c.commit();
        assertThat(count(c, "SELECT count(*) FROM t WHERE a = 98")).isEqualTo(1);
        c.commit();
    }

    @Test
    void anOutOfMemoryErrorInAnImplicitTransactionLeavesTheSessionIdle() throws SQLException {
        c.setAutoCommit(true);
        FaultPoints.arm(Point.WRITE, () -> new OutOfMemoryError("Java heap space"));
        assertState("53200", () -> c.createStatement().executeUpdate("INSERT INTO t VALUES (97)"));
        assertThat(state()).isEqualTo(TransactionState.IDLE);
        FaultPoints.arm(Point.PEEK, () -> new OutOfMemoryError("Java heap space"));
        assertState("53200", () -> count(c, "SELECT count(*) FROM t"));
        assertThat(state()).isEqualTo(TransactionState.IDLE);
        assertThat(count(c, "SELECT count(*) FROM t WHERE a = 97")).isZero();
        assertThat(count(c, "SELECT count(*) FROM t WHERE a IN (1, 2)")).isEqualTo(2);
    }
}
