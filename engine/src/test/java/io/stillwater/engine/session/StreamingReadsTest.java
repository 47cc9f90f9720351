package io.stillwater.engine.session;

import java.util.concurrent.ExecutionException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.memory.MemoryPool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A SELECT's rows are produced as they are pulled, within the query's memory budget:
 * a 9M-row cross join is counted or streamed without holding it, {@code max_result_size}
 * and {@code max_query_memory} fail the statement (53200) as rows are produced, a cancel
 * or statement timeout stops it at any point (also between pulls of an open stream), the
 * reads of writes have the same budget, and the shared memory pool is back where it was
 * however a read ended. After every failure the session keeps working.
 */
class StreamingReadsTest extends SessionTestBase {
    private Session sys;
    private long poolBefore;

    @BeforeEach
    void setUp() {
        sys = engine.connect("mz_system", "materialize", Map.of());
        poolBefore = MemoryPool.process().reserved();
    }

    @AfterEach
    void poolIsBackWhereItWas() {
        sys.close();
        assertThat(MemoryPool.process().reserved()).as("memory pool after the test").isEqualTo(poolBefore);
    }

    /** Tables a(x) and b(y) with 1..n each. */
    private void crossJoinTables(int n) {
        s.execute("CREATE TABLE a (x int)");
        s.execute("CREATE TABLE b (y int)");
        s.execute("INSERT INTO a SELECT g FROM generate_series(1, " + n + ") g");
        s.execute("INSERT INTO b SELECT g FROM generate_series(1, " + n + ") g");
    }

    private RowStream stream(String sql) { return ((ExecutionResult.Rows) s.execute(sql)).stream(); }

    private static SqlState stateOf(Throwable e) { return ((SqlException) e).state(); }

    private void sessionStillWorks() {
        assertThat(q("SELECT 1")).containsExactly(List.of("1"));
        assertThat(q("SELECT count(*) FROM a")).hasSize(1);
    }

    @Test
    void countOverACrossJoinStreamsThePairs() {
        crossJoinTables(3000);
        assertThat(q("SELECT count(*) FROM a, b")).containsExactly(List.of("9000000"));
        assertThat(q("SELECT count(*), sum(x) FROM a, b WHERE x = y")).containsExactly(List.of("3000", "4501500"));
    }

    @Test
    void aLargeResultStreamsWithoutBeingHeld() {
        crossJoinTables(2000);
        long rows = 0;
        long mostReserved = 0;
        try (RowStream st = stream("SELECT x, y FROM a, b")) {
            for (List<Row> batch = st.next(8192); !batch.isEmpty(); batch = st.next(8192)) {
                rows += batch.size();
                mostReserved = Math.max(mostReserved, MemoryPool.process().reserved() - poolBefore);
            }
        }
        assertThat(rows).isEqualTo(4_000_000);
        // Held, 4M rows would be ~300 MB; streamed, the read holds a side's hash table and a chunk.
        assertThat(mostReserved).as("pool bytes reserved while streaming").isLessThan(8L << 20);
    }

    @Test
    void limitStopsTheReadWithoutComputingTheRest() {
        crossJoinTables(10_000); // 100M pairs: only a LIMIT's worth is ever produced
        assertThat(q("SELECT x, y FROM a, b LIMIT 3")).hasSize(3);
        assertThat(q("SELECT x, y FROM a, b WHERE x > 9990 LIMIT 2 OFFSET 1")).hasSize(2);
    }

    @Test
    void maxResultSizeFailsAsTheResultIsProduced() {
        crossJoinTables(2000);
        sys.execute("ALTER SYSTEM SET max_result_size = '1MB'");
        long[] pulled = {0};
        assertThatThrownBy(() -> {
            try (RowStream st = stream("SELECT x, y FROM a, b")) {
                for (List<Row> batch = st.next(1000); !batch.isEmpty(); batch = st.next(1000)) pulled[0] += batch.size();
            }
        }).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
            assertThat(e.getMessage()).isEqualTo("result exceeds max size of 1.0 MiB");
        });
        // 18 bytes a row: the error came once ~58,000 rows were out, not after all 4M existed.
        assertThat(pulled[0]).isBetween(50_000L, 60_000L);
        // Held for sorting, the result is counted as it is buffered.
        assertThatThrownBy(() -> q("SELECT x, y FROM a, b ORDER BY y"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.OUT_OF_MEMORY));
        sessionStillWorks();
    }

    @Test
    void aQueryPastItsMemoryBudgetFails53200AndTheSessionStaysUsable() {
        crossJoinTables(1000);
        sys.execute("ALTER SYSTEM SET max_query_memory = '8MB'");
        assertThatThrownBy(() -> q("SELECT DISTINCT x, y FROM a, b")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
            assertThat(e.getMessage()).isEqualTo("query exceeded its memory budget of 8.0 MiB (max_query_memory)");
            assertThat(e.hint()).contains("ALTER SYSTEM SET max_query_memory");
        });
        // A sort of 1M rows needs them all; top-k needs k of them.
        assertThatThrownBy(() -> q("SELECT x, y FROM a, b ORDER BY y, x"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.OUT_OF_MEMORY));
        assertThat(q("SELECT x, y FROM a, b ORDER BY y DESC, x LIMIT 2")).containsExactly(List.of("1", "1000"), List.of("2", "1000"));
        sessionStillWorks();
        sys.execute("ALTER SYSTEM RESET max_query_memory");
        assertThat(q("SELECT count(*) FROM (SELECT DISTINCT x, y FROM a, b) d")).containsExactly(List.of("1000000"));
    }

    @Test
    void theReadsOfWritesHaveTheSameBudget() {
        crossJoinTables(1000);
        s.execute("CREATE TABLE c (x int)");
        sys.execute("ALTER SYSTEM SET max_query_memory = '8MB'");
        assertThatThrownBy(() -> s.execute("INSERT INTO c SELECT x FROM a, b"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.OUT_OF_MEMORY));
        assertThatThrownBy(() -> s.execute("DELETE FROM a WHERE x IN (SELECT x * 10000 + y FROM a, b)"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.OUT_OF_MEMORY));
        assertThat(q("SELECT count(*) FROM c")).containsExactly(List.of("0"));
        assertThat(q("SELECT count(*) FROM a")).containsExactly(List.of("1000"));
        assertThat(tag("INSERT INTO c SELECT x FROM a, b WHERE x = y")).isEqualTo("INSERT 0 1000");
    }

    @Test
    void aCancelFromAnotherThreadStopsTheCrossJoin() throws Exception {
        crossJoinTables(10_000); // 100M pairs: seconds of work
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<ExecutionResult> read = pool.submit(() -> s.execute("SELECT count(*) FROM a, b"));
            while (true) { // cancel only lands while the statement runs: repeat until it ends
                s.cancel();
                try {
                    read.get(1, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException stillRunning) {
                    // cancel again
                } catch (ExecutionException e) {
                    assertThat(stateOf(e.getCause())).isEqualTo(SqlState.QUERY_CANCELED);
                    assertThat(e.getCause()).hasMessage("canceling statement due to user request");
                    break;
                }
            }
            assertThat(read.isDone()).isTrue();
            assertThatThrownBy(read::get).hasCauseInstanceOf(SqlException.class);
        } finally {
            pool.shutdownNow();
        }
        sessionStillWorks();
    }

    @Test
    void aCancelBetweenPullsStopsTheNextPull() {
        crossJoinTables(1000);
        RowStream st = stream("SELECT x, y FROM a, b");
        assertThat(st.next(100)).hasSize(100);
        s.cancel(); // no statement executes, but this one's rows are still being pulled
        assertThatThrownBy(() -> st.next(100)).satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.QUERY_CANCELED));
        assertThat(st.next(100)).as("finished after the error").isEmpty();
        st.close();
        sessionStillWorks();
        s.cancel(); // nothing runs now: a later statement is unaffected
        sessionStillWorks();
    }

    @Test
    void statementTimeoutFiresDuringTheCrossJoin() {
        crossJoinTables(10_000);
        s.execute("SET statement_timeout = '200ms'");
        assertThatThrownBy(() -> q("SELECT count(*) FROM a, b")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED);
            assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
        });
        s.execute("RESET statement_timeout");
        sessionStillWorks();
    }

    @Test
    void aStreamClosedBeforeItsEndReleasesItsMemory() {
        crossJoinTables(1000);
        RowStream sorted = stream("SELECT x, y FROM a, b ORDER BY y, x"); // 1M rows held for the sort
        assertThat(sorted.next(10)).hasSize(10);
        assertThat(MemoryPool.process().reserved()).as("the sort buffer is reserved").isGreaterThan(poolBefore);
        sorted.close();
        assertThat(MemoryPool.process().reserved()).isEqualTo(poolBefore);
        // An evaluation error found while streaming ends the stream and releases it too.
        assertThatThrownBy(() -> q("SELECT 1 / (x - 900) FROM a, b"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.DIVISION_BY_ZERO));
        assertThat(MemoryPool.process().reserved()).isEqualTo(poolBefore);
        sessionStillWorks();
    }

    @Test
    void aChainOfTwentyEqualityJoinsAnswersAtOnce() {
        StringBuilder from = new StringBuilder("t1");
        StringBuilder where = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            s.execute("CREATE TABLE t" + i + " (a int, b int)");
            s.execute("INSERT INTO t" + i + " SELECT g, g FROM generate_series(1, 10) g");
            if (i > 1) {
                from.append(", t").append(i);
                where.append(i > 2 ? " AND " : "").append("t").append(i - 1).append(".b = t").append(i).append(".a");
            }
        }
        assertThat(q("SELECT count(*) FROM " + from + " WHERE " + where)).containsExactly(List.of("10"));
    }

    @Test
    void aStreamedReadIsInFlightUntilItsStreamCloses() {
        crossJoinTables(1000);
        Session other = engine.connect("materialize", "materialize", Map.of());
        try {
            RowStream st = stream("SELECT x, y FROM a, b");
            assertThat(st.next(10)).hasSize(10);
            String active = "SELECT type, state, statement FROM mz_introspection.mz_active_peeks WHERE type = 'dataflow'";
            assertThat(rows(other.execute(active))).containsExactly(List.of("dataflow", "running", "SELECT x, y FROM a, b"));
            st.close();
            assertThat(rows(other.execute(active))).isEmpty();
            assertThat(rows(other.execute("SELECT type, outcome FROM mz_introspection.mz_peek_history"
                    + " WHERE statement = 'SELECT x, y FROM a, b'"))).containsExactly(List.of("dataflow", "success"));
        } finally {
            other.close();
        }
    }

    @Test
    void aWalkOfAnIndexStreamsWhenItRunsOnTheSessionThread() {
        s.execute("CREATE TABLE big (x int)");
        s.execute("INSERT INTO big SELECT g FROM generate_series(1, 200000) g");
        s.execute("CREATE DEFAULT INDEX ON big");
        // Offload off: the walk runs on the session's thread to its end, as the rows are pulled.
        sys.execute("ALTER SYSTEM SET enable_compute_index_peek_offload = off");
        long rows = 0;
        try (RowStream st = stream("SELECT x FROM big WHERE x % 2 = 0")) {
            assertThat(q("SELECT state FROM mz_introspection.mz_active_peeks WHERE type = 'walk'"))
                    .containsExactly(List.of("running"));
            for (List<Row> batch = st.next(5000); !batch.isEmpty(); batch = st.next(5000)) rows += batch.size();
        }
        assertThat(rows).isEqualTo(100_000);
        assertThat(q("SELECT type, offloaded, outcome FROM mz_introspection.mz_peek_history"
                + " WHERE statement LIKE '%big WHERE%'")).containsExactly(List.of("walk", "f", "success"));
        // An error found while streaming fails the pull and ends the walk.
        assertThatThrownBy(() -> q("SELECT 1 / (x - 150000) FROM big"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.DIVISION_BY_ZERO));
        sys.execute("ALTER SYSTEM RESET enable_compute_index_peek_offload");
        assertThat(q("SELECT count(*) FROM big")).containsExactly(List.of("200000"));
    }

    @Test
    void aTransactionsEndClosesTheStreamsItOpened() {
        crossJoinTables(1000);
        s.execute("BEGIN");
        RowStream st = stream("SELECT x, y FROM a, b");
        assertThat(st.next(10)).hasSize(10);
        s.execute("COMMIT"); // its snapshots are released with the transaction's inputs
        assertThat(st.next(10)).isEmpty();
        st.close();
        sessionStillWorks();
    }

    @Test
    void readsThatRunElsewhereAreMaterializedWithinTheLimits() {
        // An index walk continued on the offload pool (offload on, the default).
        s.execute("CREATE TABLE big (x int)");
        s.execute("INSERT INTO big SELECT g FROM generate_series(1, 200000) g");
        s.execute("CREATE DEFAULT INDEX ON big");
        assertThat(q("SELECT count(*) FROM big")).containsExactly(List.of("200000"));
        sys.execute("ALTER SYSTEM SET max_result_size = '1MB'");
        assertThatThrownBy(() -> q("SELECT x FROM big")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
            assertThat(e.getMessage()).isEqualTo("result exceeds max size of 1.0 MiB");
        });
        sys.execute("ALTER SYSTEM RESET max_result_size");
        sys.execute("ALTER SYSTEM SET max_query_memory = '4MB'");
        assertThatThrownBy(() -> q("SELECT x FROM big")).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.getMessage()).isEqualTo("query exceeded its memory budget of 4.0 MiB (max_query_memory)"));
        assertThat(q("SELECT type, offloaded FROM mz_introspection.mz_peek_history WHERE statement = 'SELECT x FROM big'"))
                .containsExactly(List.of("walk", "t"), List.of("walk", "t"));

        // Every read of a solo replica runs in its worker loop: materialized there.
        sys.execute("ALTER SYSTEM SET enable_compute_interactive_runtime = off");
        s.execute("CREATE CLUSTER solo (SIZE 'scale=1,workers=1')");
        s.execute("SET cluster = solo");
        crossJoinTables(1000);
        assertThat(q("SELECT count(*) FROM a, b")).containsExactly(List.of("1000000"));
        assertThatThrownBy(() -> q("SELECT x, y FROM a, b"))
                .satisfies(e -> assertThat(stateOf(e)).isEqualTo(SqlState.OUT_OF_MEMORY));
        assertThat(q("SELECT runtime, outcome FROM mz_introspection.mz_peek_history WHERE statement = 'SELECT x, y FROM a, b'"))
                .containsExactly(List.of("solo", "query exceeded its memory budget of 4.0 MiB (max_query_memory)"));
        sessionStillWorks();
    }
}
