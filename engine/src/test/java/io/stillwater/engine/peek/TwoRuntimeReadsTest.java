package io.stillwater.engine.peek;

import io.stillwater.engine.storage.LogRecord;
import static io.stillwater.engine.peek.ReplicaFixture.ROWS;
import static io.stillwater.engine.peek.ReplicaFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.compute.ReplicaIntrospection;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.peek.ReplicaFixture.HeldCheck;
import io.stillwater.engine.session.EngineSession;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Where a replica serves reads and what that means for concurrent reads (DESIGN.md
 * "Clusters, replicas and the two runtimes"): real replicas, real reads; walks are held
 * mid-way by their own cancellation checks (latches, never sleeps), and every claim about
 * ordering is read from the replica's introspection.
 */
class TwoRuntimeReadsTest {
    static final String WORKER = "stillwater-compute-";
    static final String OFFLOAD = "-offload-";

    /** Runs {@code body} on a new thread named {@code name}. */
    static <T> CompletableFuture<T> async(String name, Supplier<T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread.ofPlatform().name(name).start(() -> {
            try {
                f.complete(body.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    static <T> T get(CompletableFuture<T> f) {
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static int rows(PeekExecutor.Result r) {
        long n = 0;
        for (int i = 0; i < r.rows().size(); i++) n += r.rows().diff(i);
        return (int) n;
    }

    // ------------------------------------------------------------------ placement

    @Test
    void twoRuntimeReplicaServesReadsInTheInteractiveRuntimeAndDataflowsPerFlag() {
        try (ReplicaFixture f = new ReplicaFixture(2, true)) {
            EngineSession s = f.session("materialize");
            ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 7");
            ReadPathSessionTest.q(s, "SELECT k FROM t WHERE v = 9");
            ReadPathSessionTest.q(s, "SELECT count(*) FROM t");
            ReadPathSessionTest.q(s, "SELECT count(*) FROM mz_introspection.mz_compute_frontiers");
            f.set("enable_compute_interactive_dataflows", false);
            ReadPathSessionTest.q(s, "SELECT sum(v) FROM t");
            ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 8");
            f.set("enable_compute_index_peek_offload", false);
            ReadPathSessionTest.q(s, "SELECT k FROM t WHERE v = 10");

            List<List<String>> h = ReadPathSessionTest.q(s, "SELECT statement, runtime, type, fast_path, offloaded,"
                    + " outcome, replica FROM mz_introspection.mz_peek_history ORDER BY id");
            assertThat(h).containsExactly(
                    List.of("SELECT v FROM t WHERE k = 7", "interactive", "lookup", "t", "f", "success", "r1"),
                    List.of("SELECT k FROM t WHERE v = 9", "interactive", "walk", "t", "t", "success", "r1"),
                    List.of("SELECT count(*) FROM t", "interactive", "dataflow", "f", "f", "success", "r1"),
                    List.of("SELECT count(*) FROM mz_introspection.mz_compute_frontiers", "interactive",
                            "introspection", "f", "f", "success", "r1"),
                    List.of("SELECT sum(v) FROM t", "maintenance", "dataflow", "f", "f", "success", "r1"),
                    List.of("SELECT v FROM t WHERE k = 8", "interactive", "lookup", "t", "f", "success", "r1"),
                    List.of("SELECT k FROM t WHERE v = 10", "interactive", "walk", "t", "f", "success", "r1"));
            s.close();
        }
    }

    @Test
    void soloReplicaServesEveryReadInItsWorkerLoop() {
        try (ReplicaFixture f = new ReplicaFixture(2, false)) {
            EngineSession s = f.session("materialize");
            assertThat(ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 7")).containsExactly(List.of("7"));
            assertThat(ReadPathSessionTest.q(s, "SELECT count(*) FROM t WHERE v = 9")).containsExactly(List.of("200"));
            assertThat(ReadPathSessionTest.q(s, "SELECT k FROM t WHERE v = 9 AND k < 300 ORDER BY k"))
                    .containsExactly(List.of("9"), List.of("109"), List.of("209"));
            ReadPathSessionTest.q(s, "SELECT * FROM mz_introspection.mz_active_peeks");
            List<List<String>> h = ReadPathSessionTest.q(s,
                    "SELECT runtime, type, fast_path, offloaded FROM mz_introspection.mz_peek_history ORDER BY id");
            assertThat(h).containsExactly(List.of("solo", "lookup", "t", "f"), List.of("solo", "dataflow", "f", "f"),
                    List.of("solo", "walk", "t", "t"), List.of("solo", "introspection", "f", "f"));
            s.close();
        }
    }

    @Test
    void explainNamesTheRuntimeThatWouldServeTheRead() {
        try (ReplicaFixture two = new ReplicaFixture(1, true)) {
            assertThat(explainRuntime(two, "SELECT v FROM t WHERE k = 1")).isEqualTo("Target Runtime: interactive");
            assertThat(explainRuntime(two, "SELECT count(*) FROM t")).isEqualTo("Target Runtime: interactive");
            two.set("enable_compute_interactive_dataflows", false);
            assertThat(explainRuntime(two, "SELECT count(*) FROM t")).isEqualTo("Target Runtime: maintenance");
            assertThat(explainRuntime(two, "SELECT * FROM mz_introspection.mz_peek_history"))
                    .isEqualTo("Target Runtime: interactive");
        }
        try (ReplicaFixture solo = new ReplicaFixture(1, false)) {
            assertThat(explainRuntime(solo, "SELECT v FROM t WHERE k = 1")).isEqualTo("Target Runtime: solo");
        }
    }

    static String explainRuntime(ReplicaFixture f, String sql) {
        String text = f.q("EXPLAIN " + sql).get(0).get(0);
        String[] lines = text.split("\n");
        return lines[lines.length - 1];
    }

    // ------------------------------------------------------------------ isolation

    @Test
    void twoRuntimesALookupCompletesWhileAWalkIsInProgressAndFrontiersMove() {
        try (ReplicaFixture f = new ReplicaFixture(2, true)) {
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("compute_index_peek_inline_budget", 100);
            for (boolean offload : new boolean[] {true, false}) {
                f.set("enable_compute_index_peek_offload", offload);
                for (int i = 0; i < 15; i++) {
                    // Offloaded, the walk is held on the offload pool; inline, on its own session thread.
                    HeldCheck hold = new HeldCheck(HeldCheck.named(offload ? OFFLOAD : "walker"), 5);
                    String walkName = "walk " + offload + " " + i;
                    CompletableFuture<PeekExecutor.Result> walk =
                            async("walker", () -> f.read(walkName, f.walkPlan(), hold));
                    hold.awaitReached();

                    int k = 1 + i * 97;
                    PeekExecutor.Result r = f.read("lookup " + i, f.lookupPlan(k), Cancellation.NONE);
                    assertThat(TestCompute.rows(r.rows())).containsExactly(Row.of(k, k % 100));
                    assertThat(f.activeState(walkName)).isEqualTo(offload ? "offloaded" : "running");
                    assertThat(f.history("lookup " + i).runtime()).isEqualTo(ComputeRuntime.INTERACTIVE);

                    // Maintenance is not held up either: a write becomes readable in the index.
                    long written = f.coord.commit(List.of(new LogRecord.TableChange(
                            f.table, Row.of(-i - 1, 0), 1)));
                    get(f.indexReader().readableAt(written));
                    assertThat(walk).isNotDone();

                    hold.release();
                    assertThat(rows(get(walk))).isGreaterThanOrEqualTo(ROWS);
                    assertThat(f.history(walkName).offloaded()).isEqualTo(offload);
                    assertThat(f.replica.readHolds(f.index)).isZero();
                }
            }
        }
    }

    @Test
    void soloALookupWaitsForTheWalkAheadOfItAndFrontiersStall() {
        try (ReplicaFixture f = new ReplicaFixture(2, false)) {
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("enable_compute_index_peek_offload", false);
            for (int i = 0; i < 10; i++) {
                HeldCheck hold = new HeldCheck(HeldCheck.named(WORKER), 5);
                String walkName = "walk " + i;
                String lookupName = "lookup " + i;
                CompletableFuture<PeekExecutor.Result> walk = async("walker", () -> f.read(walkName, f.walkPlan(), hold));
                hold.awaitReached();
                assertThat(hold.heldOn.getName()).startsWith(WORKER + "0");

                int k = 3 + i;
                CompletableFuture<PeekExecutor.Result> lookup =
                        async("looker", () -> f.read(lookupName, f.lookupPlan(k), Cancellation.NONE));
                await("the lookup to queue", () -> "queued".equals(f.activeState(lookupName)));
                // The worker loop is busy with the walk: the write's frontier cannot advance.
                long written = f.coord.commit(List.of(new LogRecord.TableChange(
                        f.table, Row.of(-i - 1, 0), 1)));
                CompletableFuture<Void> readable = f.indexReader().readableAt(written);
                assertThat(f.activeState(lookupName)).isEqualTo("queued");
                assertThat(lookup).isNotDone();
                assertThat(readable).isNotDone();

                hold.release();
                assertThat(TestCompute.rows(get(lookup).rows())).containsExactly(Row.of(k, k % 100));
                get(walk);
                get(readable);
                List<String> order = f.historyStatements();
                assertThat(order.indexOf(walkName)).isLessThan(order.indexOf(lookupName));
                assertThat(f.history(lookupName).runtime()).isEqualTo(ComputeRuntime.SOLO);
            }
        }
    }

    @Test
    void soloIntrospectionReadsQueueBehindAWalkTwoRuntimeOnesDoNot() {
        for (boolean two : new boolean[] {false, true}) {
            try (ReplicaFixture f = new ReplicaFixture(1, two)) {
                f.set("compute_index_peek_yield_granularity", 100);
                f.set("enable_compute_index_peek_offload", false);
                HeldCheck hold = new HeldCheck(HeldCheck.named(two ? "walker" : WORKER), 5);
                CompletableFuture<PeekExecutor.Result> walk = async("walker", () -> f.read("the walk", f.walkPlan(), hold));
                hold.awaitReached();
                EngineSession s = f.session("materialize");
                String sql = "SELECT statement, runtime, type, state FROM mz_introspection.mz_active_peeks ORDER BY id";
                CompletableFuture<List<List<String>>> intro = async("introspector", () -> ReadPathSessionTest.q(s, sql));
                if (two) {
                    assertThat(get(intro)).contains(List.of("the walk", "interactive", "walk", "running"));
                } else {
                    await("the introspection read to queue", () -> f.intro().activePeeks().size() == 2);
                    assertThat(intro).isNotDone();
                }
                hold.release();
                get(walk);
                if (!two) {
                    // Served after the walk: it saw only itself.
                    assertThat(get(intro)).containsExactly(List.of(sql, "solo", "introspection", "running"));
                }
                s.close();
            }
        }
    }

    // ------------------------------------------------------------------ offload admission and cancellation

    @Test
    void pastThePoolsLimitAWalkParksUntilASlotFrees() {
        try (ReplicaFixture f = new ReplicaFixture(1, true)) { // one worker: one offload thread
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("compute_index_peek_inline_budget", 50);
            for (int i = 0; i < 10; i++) {
                HeldCheck first = new HeldCheck(HeldCheck.named(OFFLOAD), 5);
                CompletableFuture<PeekExecutor.Result> a = async("walker", () -> f.read("first " + f, f.walkPlan(), first));
                first.awaitReached();
                String second = "second " + i;
                CompletableFuture<PeekExecutor.Result> b =
                        async("walker2", () -> f.read(second, f.walkPlan(), Cancellation.NONE));
                // Its state says PARKED a moment before it is in the pool's queue: await both.
                await("the second walk to park", () -> "parked".equals(f.activeState(second))
                        && f.replica.offloadParked() == 1);
                assertThat(f.replica.offloadRunning()).isEqualTo(1);
                assertThat(b).isNotDone();

                first.release();
                assertThat(rows(get(a))).isEqualTo(ROWS);
                assertThat(rows(get(b))).isEqualTo(ROWS);
                assertThat(f.history(second).offloaded()).isTrue();
                assertThat(f.replica.offloadParked()).isZero();
                assertThat(f.replica.readHolds(f.index)).isZero();
            }
        }
    }

    @Test
    void cancellingAnOffloadedWalkStopsItAndReleasesItsSnapshot() {
        try (ReplicaFixture f = new ReplicaFixture(2, true)) {
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("compute_index_peek_inline_budget", 10);
            for (int i = 0; i < 10; i++) {
                HeldCheck hold = new HeldCheck(HeldCheck.named(OFFLOAD), 4);
                String name = "canceled " + i;
                CompletableFuture<PeekExecutor.Result> walk = async("walker", () -> f.read(name, f.walkPlan(), hold));
                hold.awaitReached();
                assertThat(f.replica.readHolds(f.index)).isEqualTo(4); // part + error part, two workers
                hold.cancel();
                hold.release();
                assertThatThrownBy(() -> get(walk)).hasRootCauseInstanceOf(SqlException.class)
                        .rootCause().hasMessage("canceling statement due to user request");
                // Once the read returned, the walk has stopped and its snapshot is released.
                assertThat(f.replica.offloadRunning()).isZero();
                assertThat(f.replica.readHolds(f.index)).isZero();
                ReplicaIntrospection.PeekRecord r = f.history(name);
                assertThat(r.outcome()).isEqualTo("canceled");
                assertThat(r.offloaded()).isTrue();
            }
        }
    }

    @Test
    void cancellingAParkedWalkRemovesItWithoutRunningIt() {
        try (ReplicaFixture f = new ReplicaFixture(1, true)) {
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("compute_index_peek_inline_budget", 10);
            for (int i = 0; i < 10; i++) {
                HeldCheck first = new HeldCheck(HeldCheck.named(OFFLOAD), 4);
                CompletableFuture<PeekExecutor.Result> a = async("walker", () -> f.read("first", f.walkPlan(), first));
                first.awaitReached();
                HeldCheck parkedCancel = new HeldCheck(t -> false, 1);
                String name = "parked " + i;
                CompletableFuture<PeekExecutor.Result> b = async("walker2", () -> f.read(name, f.walkPlan(), parkedCancel));
                await("the walk to park", () -> "parked".equals(f.activeState(name)));
                assertThat(f.replica.readHolds(f.index)).isEqualTo(4); // two snapshots, one worker

                parkedCancel.cancel();
                assertThatThrownBy(() -> get(b)).rootCause().isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED));
                assertThat(f.replica.offloadParked()).isZero();
                assertThat(f.replica.readHolds(f.index)).isEqualTo(2); // only the first walk's
                assertThat(f.history(name).outcome()).isEqualTo("canceled");

                first.release();
                assertThat(rows(get(a))).isEqualTo(ROWS);
                assertThat(f.replica.readHolds(f.index)).isZero();
            }
        }
    }

    @Test
    void aStatementTimeoutStopsARunningWalkInEveryPlacement() {
        for (boolean two : new boolean[] {false, true}) {
            try (ReplicaFixture f = new ReplicaFixture(1, two)) {
                f.set("compute_index_peek_yield_granularity", 100);
                f.set("enable_compute_index_peek_offload", false);
                long[] deadline = {Long.MAX_VALUE};
                Cancellation timeout = () -> {
                    if (deadline[0] != Long.MAX_VALUE && System.nanoTime() - deadline[0] > 0) {
                        throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to statement timeout");
                    }
                };
                HeldCheck hold = new HeldCheck(HeldCheck.named(two ? "walker" : WORKER), 3);
                // At its hold point the walk waits for the deadline to pass, then goes on checking.
                Cancellation both = new Cancellation() {
                    boolean armedOnce;

                    @Override
                    public void check() {
                        hold.check();
                        if (hold.reached.getCount() == 0 && !armedOnce) {
                            armedOnce = true;
                            while (System.nanoTime() - deadline[0] <= 0) Thread.onSpinWait();
                        }
                        timeout.check();
                    }
                };
                hold.release(); // never parks: the deadline does the holding
                CompletableFuture<PeekExecutor.Result> walk = async("walker", () -> {
                    try (PeekInputs in = PeekInputs.acquire(f.coord.reads(), f.walkPlan(), Isolation.SERIALIZABLE,
                            Cancellation.NONE)) {
                        // The statement's clock starts once its inputs are pinned (so it times out in the walk).
                        deadline[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
                        hold.armed = true;
                        return f.executor.run(f.replica, "timed out", f.walkPlan(), in, f.ctx, both);
                    }
                });
                assertThatThrownBy(() -> get(walk)).rootCause()
                        .hasMessage("canceling statement due to statement timeout");
                assertThat(f.history("timed out").outcome()).isEqualTo("canceled");
                assertThat(f.replica.readHolds(f.index)).isZero();
            }
        }
    }

    @Test
    void aSessionStatementTimeoutCancelsAReadQueuedBehindAWalk() {
        try (ReplicaFixture f = new ReplicaFixture(1, false)) {
            f.set("compute_index_peek_yield_granularity", 100);
            f.set("enable_compute_index_peek_offload", false);
            EngineSession s = f.session("materialize");
            // Serializable: the read's time is one the index has completed, so it reaches the
            // replica (a strict serializable read would time out waiting for the stalled frontier).
            ReadPathSessionTest.q(s, "SET transaction_isolation = 'serializable'");
            // Warm the read path up (first-time class loading must not eat the timeout).
            assertThat(ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 6")).containsExactly(List.of("6"));
            HeldCheck hold = new HeldCheck(HeldCheck.named(WORKER), 5);
            CompletableFuture<PeekExecutor.Result> walk = async("walker", () -> f.read("the walk", f.walkPlan(), hold));
            hold.awaitReached();
            ReadPathSessionTest.q(s, "SET statement_timeout = '200ms'");
            assertThatThrownBy(() -> ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 5"))
                    .isInstanceOfSatisfying(SqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED);
                        assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
                    });
            assertThat(f.history("SELECT v FROM t WHERE k = 5").outcome()).as(f.historyStatements().toString()).isEqualTo("canceled");
            hold.release();
            assertThat(rows(get(walk))).isEqualTo(ROWS);
            ReadPathSessionTest.q(s, "SET statement_timeout = 0");
            assertThat(ReadPathSessionTest.q(s, "SELECT v FROM t WHERE k = 5")).containsExactly(List.of("5"));
            s.close();
        }
    }

    // ------------------------------------------------------------------ introspection contents

    @Test
    void introspectionRelationsShowTheReplicasState() {
        try (ReplicaFixture f = new ReplicaFixture(2, true)) {
            String idx = "u" + f.index;
            assertThat(f.q("SELECT id, name, records FROM mz_introspection.mz_dataflow_arrangement_sizes"))
                    .containsExactly(List.of(idx, "t_k", String.valueOf(ROWS)));
            assertThat(f.q("SELECT batches > 0, size > 0 FROM mz_introspection.mz_dataflow_arrangement_sizes"))
                    .containsExactly(List.of("t", "t"));
            assertThat(f.q("SELECT export_id, time > 0 FROM mz_introspection.mz_compute_frontiers"))
                    .containsExactly(List.of(idx, "t"));
            f.q("SELECT v FROM t WHERE k = 1");
            f.q("SELECT v FROM t WHERE k = 2");
            assertThat(f.q("SELECT type, sum(count) FROM mz_introspection.mz_peek_durations_histogram"
                    + " WHERE type = 'lookup' GROUP BY type")).containsExactly(List.of("lookup", "2"));
            assertThat(f.q("SELECT count(*) FROM mz_introspection.mz_peek_history WHERE duration_ms >= 0"
                    + " AND finished_at IS NOT NULL")).containsExactly(List.of("6")); // 4 introspection reads, 2 lookups
        }
    }
}
