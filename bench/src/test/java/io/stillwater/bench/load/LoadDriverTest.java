package io.stillwater.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.arrival.Arrival;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.LatencyRecorder;
import io.stillwater.bench.stats.Sample;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class LoadDriverTest {
    private static final Action ACTION = new Action.ReuseConnQuery("SELECT 1", List.of());
    private final LoadDriver driver = new LoadDriver(t -> t instanceof SQLException e
            ? e.getSQLState() + ": " + e.getMessage() : t.toString());

    @Test
    void periodicSchedulesRateTimesDurationEventsIncludingFractionalRates() {
        assertThat(new Arrival.Periodic(500).schedule(Duration.ofMillis(200), new SplittableRandom(1))).hasSize(100);
        assertThat(new Arrival.Periodic(2.5).schedule(Duration.ofSeconds(2), new SplittableRandom(1)))
                .containsExactly(0, 400_000_000, 800_000_000, 1_200_000_000, 1_600_000_000);
        assertThat(new Arrival.Periodic(3).schedule(Duration.ofMillis(1500), new SplittableRandom(1))).hasSize(5);
    }

    @Test
    void poissonAndGaussianSchedulesAverageTheirRate() {
        long[] poisson = new Arrival.Poisson(1000).schedule(Duration.ofSeconds(10), new SplittableRandom(7));
        assertThat(poisson.length).isBetween(10_000 - 400, 10_000 + 400); // 4 sigma
        long[] gauss = new Arrival.Gaussian(Duration.ofMillis(10), Duration.ofMillis(2))
                .schedule(Duration.ofSeconds(10), new SplittableRandom(7));
        assertThat(gauss.length).isBetween(980, 1020);
        assertThat(gauss).isSorted();
    }

    @Test
    void openLoopLatencyRunsFromTheScheduledStartSoQueueingBehindASlowActionCounts() throws Exception {
        // 500/s for 200 ms = 100 events, each served in >= 4 ms on one serialized "connection":
        // the backlog grows by >= 2 ms per event, and every event's latency must include it.
        long serviceNanos = 4_000_000;
        ReentrantLock serial = new ReentrantLock(true);
        Invoker slow = () -> {
            serial.lock();
            try {
                long until = System.nanoTime() + serviceNanos;
                while (System.nanoTime() < until) {
                    LockSupport.parkNanos(until - System.nanoTime());
                }
            } finally {
                serial.unlock();
            }
        };
        LatencyRecorder rec = new LatencyRecorder(ACTION.name());
        long origin = System.nanoTime();
        LoadPhaseReport report = driver.run(Duration.ofMillis(200),
                List.of(new BoundLoop(new Loop.OpenLoop(ACTION, new Arrival.Periodic(500), true), () -> slow, rec)),
                origin);

        assertThat(report.loops()).singleElement().extracting(LoopReport::issued).isEqualTo(100L);
        // the phase ended when the last query finished: every sample is already recorded
        assertThat(rec.size()).isEqualTo(100);
        ActionStatistics s = rec.statistics();
        assertThat(s.errors()).isZero();
        // the last of n serialized events finishes no earlier than n * service after the start,
        // and was scheduled at (n - 1) * gap
        assertThat(s.max()).isGreaterThanOrEqualTo((100 * 4.0) - (99 * 2.0));
        // recorded starts are the schedule itself (2 ms apart exactly), not the dispatch times
        List<Sample> samples = rec.samples().stream()
                .sorted(Comparator.comparingDouble(Sample::offsetMillis)).toList();
        for (int k = 1; k < samples.size(); k++) {
            assertThat(samples.get(k).offsetMillis() - samples.get(0).offsetMillis())
                    .isCloseTo(2.0 * k, Assertions.within(1e-6));
        }
    }

    @Test
    void aTrivialPeriodicLoopIssuesEveryScheduledEventAndReportsItsOwnLateness() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        LatencyRecorder rec = new LatencyRecorder(ACTION.name());
        LoadPhaseReport report = driver.run(Duration.ofMillis(300),
                List.of(new BoundLoop(new Loop.OpenLoop(ACTION, new Arrival.Periodic(500), true),
                        () -> calls::incrementAndGet, rec)), System.nanoTime());
        LoopReport loop = report.loops().getFirst();
        assertThat(loop.kind()).isEqualTo(LoopReport.Kind.OPEN);
        assertThat(loop.issued()).isEqualTo(150);
        assertThat(calls).hasValue(150);
        assertThat(rec.statistics().queries()).isEqualTo(150);
        assertThat(loop.p99LatenessMillis()).isBetween(0.0, loop.maxLatenessMillis());
        // latency is never shorter than the harness's own lateness, which it includes
        assertThat(rec.statistics().max()).isGreaterThanOrEqualTo(loop.maxLatenessMillis() * 0.999 - 0.001);
    }

    @Test
    void theOpenLoopPhaseEndsOnlyWhenItsLastQueryHasFinished() throws Exception {
        // no query can finish before all 5 have started, i.e. before the last one was issued
        CountDownLatch allStarted = new CountDownLatch(5);
        Invoker gated = () -> {
            allStarted.countDown();
            allStarted.await();
        };
        LatencyRecorder rec = new LatencyRecorder(ACTION.name());
        driver.run(Duration.ofMillis(100),
                List.of(new BoundLoop(new Loop.OpenLoop(ACTION, new Arrival.Periodic(50), true), () -> gated, rec)),
                System.nanoTime());
        assertThat(rec.size()).isEqualTo(5);
        assertThat(rec.statistics().errors()).isZero();
    }

    @Test
    void aClosedLoopContinuesAfterFailuresAndCountsEachWithItsText() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Invoker everyOther = () -> {
            if (calls.getAndIncrement() % 2 == 0) {
                throw new SQLException("could not serialize access", "40001");
            }
        };
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        InvokerFactory factory = () -> {
            opened.incrementAndGet();
            return new Invoker() {
                @Override
                public void invoke() throws Exception {
                    everyOther.invoke();
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                }
            };
        };
        LatencyRecorder rec = new LatencyRecorder(ACTION.name());
        LoadPhaseReport report = driver.run(Duration.ofMillis(100),
                List.of(new BoundLoop(new Loop.ClosedLoop(ACTION, 3, true), factory, rec)), System.nanoTime());
        ActionStatistics s = rec.statistics();
        assertThat(opened).hasValue(3);
        assertThat(closed).hasValue(3);
        assertThat(s.queries()).isEqualTo(calls.get()).isEqualTo(report.loops().getFirst().issued());
        assertThat(s.errors()).isEqualTo((calls.get() + 1) / 2);
        assertThat(s.queries() - s.errors()).isPositive(); // the loops went on after the first failure
        assertThat(s.errorCounts()).containsOnlyKeys("40001: could not serialize access");
        assertThat(s.errorCounts().get("40001: could not serialize access")).isEqualTo(s.errors());
    }

    @Test
    void openLoopFailuresAreNeverDropped() throws Exception {
        AtomicLong n = new AtomicLong();
        Invoker failing = () -> {
            throw new SQLException("relation \"t\" does not exist " + (n.incrementAndGet() % 2), "42P01");
        };
        LatencyRecorder rec = new LatencyRecorder(ACTION.name());
        driver.run(Duration.ofMillis(100),
                List.of(new BoundLoop(new Loop.OpenLoop(ACTION, new Arrival.Periodic(100), true), () -> failing,
                        rec)), System.nanoTime());
        ActionStatistics s = rec.statistics();
        assertThat(s.queries()).isEqualTo(10);
        assertThat(s.errors()).isEqualTo(10);
        assertThat(s.errorCounts()).containsOnly(
                Map.entry("42P01: relation \"t\" does not exist 0", 5L),
                Map.entry("42P01: relation \"t\" does not exist 1", 5L));
    }

    @Test
    void eachClosedLoopWorkerRunsOnItsOwnPlatformThreadByDefaultAndOnAVirtualOneOnRequest() throws Exception {
        for (LoadDriver.WorkerThreads kind : LoadDriver.WorkerThreads.values()) {
            // invoker i records the threads it ran on: exactly one each, distinct, of the requested kind
            List<Set<Thread>> seen = new CopyOnWriteArrayList<>();
            InvokerFactory factory = () -> {
                Set<Thread> mine = ConcurrentHashMap.newKeySet();
                seen.add(mine);
                return () -> mine.add(Thread.currentThread());
            };
            LoadDriver d = kind == LoadDriver.WorkerThreads.PLATFORM ? driver : new LoadDriver(Throwable::toString, kind);
            LatencyRecorder rec = new LatencyRecorder(ACTION.name());
            // long enough that every worker starts before the end even on a loaded machine (a worker
            // that starts after the end issues nothing)
            LoadPhaseReport report = d.run(Duration.ofSeconds(1),
                    List.of(new BoundLoop(new Loop.ClosedLoop(ACTION, 3, true), factory, rec)), System.nanoTime());

            assertThat(seen).hasSize(3).allSatisfy(threads -> assertThat(threads).hasSize(1));
            List<Thread> workers = seen.stream().map(t -> t.iterator().next()).toList();
            assertThat(workers).doesNotHaveDuplicates()
                    .allSatisfy(t -> assertThat(t.isVirtual()).isEqualTo(kind == LoadDriver.WorkerThreads.VIRTUAL))
                    .allSatisfy(t -> assertThat(t.getName()).startsWith("closed-loop " + ACTION.name() + " #"));
            // run() returned after every worker finished: all counted queries are recorded
            assertThat(rec.statistics().queries()).isEqualTo(report.loops().getFirst().issued()).isPositive();
            assertThat(workers).noneMatch(Thread::isAlive);
        }
    }
}
