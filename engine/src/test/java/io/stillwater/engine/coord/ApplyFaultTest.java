package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures in the write path (before the log append) and the apply path (a durable record
 * being installed) leave the coordinator consistent: a failed preparation changes nothing
 * and is retried, so the write is acknowledged exactly once; a record that cannot be
 * applied at all stops writes with XX000 and recovers on restart; a failure before the
 * append fails only that statement and frees the write lock.
 */
class ApplyFaultTest {
    @TempDir
    Path dir;
    Engine engine;
    Session a;
    Session b;

    @BeforeEach
    void open() {
        FaultPoints.disarmAll();
        engine = Engine.open(new EngineConfig(dir, true, 1), ComputeReplica::new);
        a = engine.connect("materialize", "materialize", Map.of());
        b = engine.connect("materialize", "materialize", Map.of());
    }

    @AfterEach
    void close() {
        FaultPoints.disarmAll();
        a.close();
        b.close();
        engine.close();
    }

    private void reopen() {
        close();
        open();
    }

    private static List<Row> rows(Session s, String sql) {
        return ((ExecutionResult.Rows) s.execute(sql)).rows();
    }

    private static List<Object> column(Session s, String sql) {
        return rows(s, sql).stream().map(r -> r.get(0)).toList();
    }

    private static String tag(Session s, String sql) {
        return ((ExecutionResult.Command) s.execute(sql)).tag();
    }

    /** Everything a session can do still works: read, write, DDL, an indexed read. */
    private void everySessionWorks(List<Object> expected) {
        for (Session s : List.of(a, b)) {
            assertThat(column(s, "SELECT x FROM t ORDER BY x")).isEqualTo(expected);
            assertThat(column(s, "SELECT 1")).containsExactly(1);
        }
    }

    /** Arms {@code point} so that its next {@code times} hits each throw {@code fault}. */
    private static void armTimes(FaultPoints.Point point, int times, Supplier<? extends Throwable> fault) {
        if (times == 0) return;
        FaultPoints.arm(point, () -> {
            armTimes(point, times - 1, fault); // re-armed before this one is thrown: the retry hits it
            return fault.get();
        });
    }

    @Test
    void aFailedApplyIsRetriedAndTheWriteIsAcknowledgedExactlyOnce() {
        a.execute("CREATE TABLE t (x int)");
        a.execute("CREATE DEFAULT INDEX ON t");
        a.execute("INSERT INTO t VALUES (1)");
        List<Supplier<? extends Throwable>> faults = List.of(
                () -> new OutOfMemoryError("Java heap space (injected)"),
                () -> new IllegalStateException("injected apply failure"));
        int x = 2;
        for (Supplier<? extends Throwable> fault : faults) {
            armTimes(FaultPoints.Point.APPLY, 1, fault);
            assertThat(tag(a, "INSERT INTO t VALUES (" + x + ")")).isEqualTo("INSERT 0 1");
            assertThat(FaultPoints.armed(FaultPoints.Point.APPLY)).as("the fault fired").isFalse();
            x++;
        }
        assertThat(engine.coordinator().isStopped()).isFalse();
        everySessionWorks(List.of(1, 2, 3));
        assertThat(tag(b, "INSERT INTO t VALUES (4)")).isEqualTo("INSERT 0 1");
        // The index saw every write exactly once too.
        assertThat(column(b, "SELECT count(*) FROM t WHERE x = 2")).containsExactly(1L);

        reopen();
        everySessionWorks(List.of(1, 2, 3, 4));
    }

    @Test
    void aFailedApplyOfDdlIsRetriedToo() {
        armTimes(FaultPoints.Point.APPLY, 1, () -> new OutOfMemoryError("injected"));
        a.execute("CREATE TABLE t (x int)");
        a.execute("INSERT INTO t VALUES (1)");
        everySessionWorks(List.of(1));
        reopen();
        everySessionWorks(List.of(1));
    }

    @Test
    void anApplyThatKeepsFailingStopsWritesAndTheRestartRecoversTheWrite() throws Exception {
        a.execute("CREATE TABLE t (x int)");
        a.execute("INSERT INTO t VALUES (1)");
        CompletableFuture<SqlException> told = new CompletableFuture<>();
        engine.coordinator().onStopped(told::complete);

        armTimes(FaultPoints.Point.APPLY, 2, () -> new OutOfMemoryError("injected"));
        assertThatThrownBy(() -> a.execute("INSERT INTO t VALUES (2)")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.INTERNAL_ERROR);
            assertThat(e.getMessage()).isEqualTo("internal error: could not apply a committed write; restart the server");
            assertThat(e.detail()).contains("durable").doesNotContain("OutOfMemoryError");
        });
        assertThat(told.get(60, TimeUnit.SECONDS).state()).isEqualTo(SqlState.INTERNAL_ERROR);
        assertThat(engine.coordinator().isStopped()).isTrue();

        // Every later write and DDL is refused the same way; reads keep the last applied state.
        for (String sql : List.of("INSERT INTO t VALUES (3)", "DELETE FROM t", "CREATE TABLE u (y int)")) {
            assertThatThrownBy(() -> b.execute(sql)).as(sql).isInstanceOfSatisfying(SqlException.class,
                    e -> assertThat(e.getMessage()).contains("could not apply a committed write"));
        }
        everySessionWorks(List.of(1));

        // The write was durable: recovery replays it.
        reopen();
        assertThat(engine.coordinator().isStopped()).isFalse();
        everySessionWorks(List.of(1, 2));
        a.execute("INSERT INTO t VALUES (3)");
        everySessionWorks(List.of(1, 2, 3));
    }

    @Test
    void aWriteFaultFailsOnlyThatStatementAndFreesTheWriteLock() throws Exception {
        a.execute("CREATE TABLE t (x int)");
        a.execute("INSERT INTO t VALUES (1)");

        armTimes(FaultPoints.Point.WRITE, 1, () -> new OutOfMemoryError("injected"));
        assertThatThrownBy(() -> a.execute("INSERT INTO t VALUES (2)")).isInstanceOf(OutOfMemoryError.class);
        armTimes(FaultPoints.Point.WRITE, 1, () -> new IllegalStateException("injected"));
        assertThatThrownBy(() -> a.execute("UPDATE t SET x = 5")).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.INTERNAL_ERROR));

        // The lock is free: another thread's write goes through (it would block forever otherwise).
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(() -> tag(b, "INSERT INTO t VALUES (3)")).get(60, TimeUnit.SECONDS))
                    .isEqualTo("INSERT 0 1");
        } finally {
            other.shutdownNow();
        }
        assertThat(engine.coordinator().isStopped()).isFalse();
        everySessionWorks(List.of(1, 3));
        assertThat(tag(a, "INSERT INTO t VALUES (4)")).isEqualTo("INSERT 0 1");
        reopen();
        everySessionWorks(List.of(1, 3, 4));
    }
}
