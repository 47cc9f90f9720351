package io.stillwater.engine.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.ParameterSnapshot;
import io.stillwater.engine.params.SystemParameters;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A replica's serving machinery with hand-written reads: where reads run, history bounds, outcomes, shutdown. */
class PeekServingTest {
    static final ParameterSnapshot PARAMS = new SystemParameters().snapshot();

    static <R> PeekRequest<R> request(String name, PeekKind kind, PeekWork<R> work) {
        return new PeekRequest<>(name, kind, -1, 0, PARAMS, Cancellation.NONE, work);
    }

    /** A read that returns {@code value} at once. */
    static <R> PeekWork<R> constant(R value) {
        return new PeekWork<>() {
            public boolean advance(long positions, long granularity, Cancellation cancel) { return true; }
            public R result() { return value; }
        };
    }

    /** A read that counts {@code started} down, then holds its thread until {@code release}, then returns {@code value}. */
    static <R> PeekWork<R> blocking(CountDownLatch started, CountDownLatch release, R value) {
        return new PeekWork<>() {
            public boolean advance(long positions, long granularity, Cancellation cancel) {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
            public R result() { return value; }
        };
    }

    @Test
    void historyKeepsTheLastTenThousandReadsAndTheHistogramCountsAll() {
        try (ComputeReplica r = new ComputeReplica(ComputeReplica.defaultSpec(1, true))) {
            int n = PeekTracker.HISTORY_LIMIT + 50;
            for (int i = 0; i < n; i++) {
                assertThat(r.serve(request("q" + i, PeekKind.LOOKUP, constant(i))).await()).isEqualTo(i);
            }
            List<ReplicaIntrospection.PeekRecord> h = r.introspection().orElseThrow().peekHistory();
            assertThat(h).hasSize(PeekTracker.HISTORY_LIMIT);
            assertThat(h.get(0).statement()).isEqualTo("q50");
            assertThat(h.get(h.size() - 1).statement()).isEqualTo("q" + (n - 1));
            List<ReplicaIntrospection.DurationBucket> buckets = r.introspection().orElseThrow().peekDurations();
            assertThat(buckets.stream().mapToLong(ReplicaIntrospection.DurationBucket::count).sum()).isEqualTo(n);
            assertThat(buckets).allSatisfy(b -> {
                assertThat(b.kind()).isEqualTo("lookup");
                assertThat(Long.bitCount(b.durationNs())).isEqualTo(1);
            });
        }
    }

    @Test
    void anErrorIsTheReadsOutcomeAndReachesTheSession() {
        for (boolean two : new boolean[] {false, true}) {
            try (ComputeReplica r = new ComputeReplica(ComputeReplica.defaultSpec(2, two))) {
                PeekWork<Integer> failing = new PeekWork<>() {
                    public boolean advance(long positions, long granularity, Cancellation cancel) {
                        throw new SqlException(SqlState.DIVISION_BY_ZERO, "Evaluation error: division by zero");
                    }
                    public Integer result() { throw new AssertionError(); }
                };
                PeekHandle<Integer> h = r.serve(request("bad", PeekKind.DATAFLOW, failing));
                assertThatThrownBy(h::await).isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO));
                ReplicaIntrospection.PeekRecord rec = r.introspection().orElseThrow().peekHistory().get(0);
                assertThat(rec.outcome()).isEqualTo("Evaluation error: division by zero");
                assertThat(rec.runtime()).isEqualTo(two ? ComputeRuntime.INTERACTIVE : ComputeRuntime.SOLO);
                assertThat(h.runtime()).isEqualTo(rec.runtime());
            }
        }
    }

    @Test
    void closingASoloReplicaEndsReadsQueuedInItsWorkerLoop() throws Exception {
        ComputeReplica r = new ComputeReplica(ComputeReplica.defaultSpec(1, false));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PeekWork<String> blocking = blocking(running, release, "done");
        PeekHandle<String> first = r.serve(request("first", PeekKind.WALK, blocking));
        assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();
        PeekHandle<Integer> queued = r.serve(request("queued", PeekKind.LOOKUP, constant(1)));
        Thread closer = Thread.ofPlatform().start(r::close);
        // The closer waits for the busy worker (joining it): the worker is told to stop by then.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (closer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) Thread.onSpinWait();
        assertThat(closer.getState()).isEqualTo(Thread.State.TIMED_WAITING);
        release.countDown();
        closer.join(60_000);
        assertThat(first.await()).isEqualTo("done");
        assertThatThrownBy(queued::await).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.ADMIN_SHUTDOWN));
    }

    /** A read that records the thread it ran on. */
    static PeekWork<Thread> currentThread() {
        return new PeekWork<>() {
            private Thread ranOn;
            public boolean advance(long positions, long granularity, Cancellation cancel) {
                ranOn = Thread.currentThread();
                return true;
            }
            public Thread result() { return ranOn; }
        };
    }

    @Test
    void theInteractiveRuntimeRunsAReadOnTheCallersThreadASoloReplicaInItsWorkerLoop() {
        try (ComputeReplica two = new ComputeReplica(ComputeReplica.defaultSpec(1, true));
             ComputeReplica solo = new ComputeReplica(ComputeReplica.defaultSpec(1, false))) {
            PeekHandle<Thread> interactive = two.serve(request("lookup", PeekKind.LOOKUP, currentThread()));
            assertThat(interactive.runtime()).isEqualTo(ComputeRuntime.INTERACTIVE);
            assertThat(interactive.await()).isSameAs(Thread.currentThread());

            PeekHandle<Thread> queued = solo.serve(request("lookup", PeekKind.LOOKUP, currentThread()));
            assertThat(queued.runtime()).isEqualTo(ComputeRuntime.SOLO);
            assertThat(queued.await().getName()).isEqualTo("stillwater-compute-0");
        }
    }

    @Test
    void onTheInteractiveRuntimeALookupDoesNotWaitBehindAWalk() throws Exception {
        try (ComputeReplica r = new ComputeReplica(ComputeReplica.defaultSpec(1, true))) {
            CountDownLatch walking = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            PeekWork<String> blockedWalk = blocking(walking, release, "walked");
            Thread walker = Thread.ofPlatform().start(() -> r.serve(request("walk", PeekKind.WALK, blockedWalk)).await());
            try {
                assertThat(walking.await(60, TimeUnit.SECONDS)).isTrue();
                // The walk holds its session thread; a lookup from another session runs now, beside it.
                assertThat(r.serve(request("lookup", PeekKind.LOOKUP, constant(7))).await()).isEqualTo(7);
                assertThat(r.introspection().orElseThrow().activePeeks())
                        .extracting(ReplicaIntrospection.ActivePeek::statement).containsExactly("walk");
            } finally {
                release.countDown();
                walker.join(60_000);
            }
        }
    }

    @Test
    void placementFollowsTheTable() {
        for (PeekKind k : PeekKind.values()) {
            assertThat(ComputeRuntime.place(k, false, true)).isEqualTo(ComputeRuntime.SOLO);
            assertThat(ComputeRuntime.place(k, false, false)).isEqualTo(ComputeRuntime.SOLO);
            assertThat(ComputeRuntime.place(k, true, true)).isEqualTo(ComputeRuntime.INTERACTIVE);
            assertThat(ComputeRuntime.place(k, true, false))
                    .isEqualTo(k == PeekKind.DATAFLOW ? ComputeRuntime.MAINTENANCE : ComputeRuntime.INTERACTIVE);
        }
    }
}
