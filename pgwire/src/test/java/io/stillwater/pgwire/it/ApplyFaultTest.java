package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * Failures in the coordinator's write and apply paths, seen through pgjdbc: an apply that
 * fails once is retried and the INSERT is acknowledged exactly once; one that keeps
 * failing is XX000 {@code could not apply a committed write; restart the server} and the
 * write is there after a restart; a write-path failure fails only its statement. Every
 * other connection's next statement works throughout.
 */
class ApplyFaultTest {
    private EmbeddedStillwater db;
    private final List<Connection> open = new ArrayList<>();

    @BeforeEach
    void start() {
        FaultPoints.disarmAll();
        db = new EmbeddedStillwater();
    }

    @AfterEach
    void stop() throws SQLException {
        FaultPoints.disarmAll();
        for (Connection c : open) c.close();
        db.close();
    }

    private Connection connect() throws SQLException {
        Connection c = db.connect();
        open.add(c);
        return c;
    }

    private static int update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    private static List<Integer> values(Connection c) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }

    /** Arms {@code point} so that its next {@code times} hits each throw {@code fault}. */
    private static void armTimes(FaultPoints.Point point, int times, Supplier<? extends Throwable> fault) {
        if (times == 0) return;
        FaultPoints.arm(point, () -> {
            armTimes(point, times - 1, fault);
            return fault.get();
        });
    }

    private void everyConnectionReads(List<Connection> connections, List<Integer> expected) throws SQLException {
        for (Connection c : connections) assertThat(values(c)).isEqualTo(expected);
    }

    @Test
    void aOneShotApplyFaultIsRetriedAndTheInsertIsAcknowledgedOnce() throws Exception {
        Connection a = connect(), b = connect();
        update(a, "CREATE TABLE t (x int)");
        update(a, "CREATE DEFAULT INDEX ON t");
        armTimes(FaultPoints.Point.APPLY, 1, () -> new OutOfMemoryError("Java heap space (injected)"));
        assertThat(update(a, "INSERT INTO t VALUES (1)")).isEqualTo(1);
        armTimes(FaultPoints.Point.APPLY, 1, () -> new IllegalStateException("injected"));
        assertThat(update(b, "INSERT INTO t VALUES (2)")).isEqualTo(1);
        assertThat(FaultPoints.armed(FaultPoints.Point.APPLY)).isFalse();
        everyConnectionReads(List.of(a, b, connect()), List.of(1, 2));
        assertThat(update(b, "INSERT INTO t VALUES (3)")).isEqualTo(1);

        for (Connection c : open) c.close();
        open.clear();
        db.restart();
        everyConnectionReads(List.of(connect()), List.of(1, 2, 3));
    }

    @Test
    void anApplyThatKeepsFailingIsXX000AndTheRestartRecoversTheWrite() throws Exception {
        Connection a = connect(), b = connect();
        update(a, "CREATE TABLE t (x int)");
        update(a, "INSERT INTO t VALUES (1)");
        armTimes(FaultPoints.Point.APPLY, 2, () -> new OutOfMemoryError("injected"));
        assertThatThrownBy(() -> update(a, "INSERT INTO t VALUES (2)")).isInstanceOfSatisfying(PSQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("XX000");
            assertThat(e.getServerErrorMessage().getMessage())
                    .isEqualTo("internal error: could not apply a committed write; restart the server");
            assertThat(e.getServerErrorMessage().getDetail()).doesNotContain("java.");
        });
        assertThatThrownBy(() -> update(b, "INSERT INTO t VALUES (3)")).isInstanceOfSatisfying(PSQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("XX000"));
        // Reads keep working on the last applied state.
        everyConnectionReads(List.of(a, b, connect()), List.of(1));

        for (Connection c : open) c.close();
        open.clear();
        db.restart();
        Connection c = connect();
        everyConnectionReads(List.of(c), List.of(1, 2));
        assertThat(update(c, "INSERT INTO t VALUES (3)")).isEqualTo(1);
    }

    @Test
    void aWriteFaultFailsOnlyItsStatementAndLeavesTheLockFree() throws Exception {
        Connection a = connect(), b = connect();
        update(a, "CREATE TABLE t (x int)");
        armTimes(FaultPoints.Point.WRITE, 1, () -> new IllegalStateException("injected"));
        assertThatThrownBy(() -> update(a, "INSERT INTO t VALUES (1)")).isInstanceOfSatisfying(PSQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("XX000"));
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(() -> update(b, "INSERT INTO t VALUES (2)")).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            other.shutdownNow();
        }
        assertThat(update(a, "INSERT INTO t VALUES (3)")).isEqualTo(1);
        everyConnectionReads(List.of(a, b), List.of(2, 3));

        for (Connection c : open) c.close();
        open.clear();
        db.restart();
        everyConnectionReads(List.of(connect()), List.of(2, 3));
    }
}
