package io.stillwater.bench.load;

import io.stillwater.bench.stats.LatencyRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Runs one load phase: all its loops at once for a duration, and returns only when the LAST
 * query has finished (not when the last event was issued), so a following cleanup never races a
 * backlog and no sample is lost.
 *
 * <p>Threads: each open loop has a platform dispatcher thread that issues its precomputed
 * schedule; every open-loop query runs on a virtual thread of a per-phase executor, whose close()
 * is the "all finished" barrier for them (an open loop needs as many queries in flight as the
 * schedule demands). Each closed-loop worker is one thread of its own, a platform thread by
 * default ({@link WorkerThreads}); the phase joins every worker before it ends. A worker's
 * invoker and its loop variables belong to that worker's thread alone. Every query, successful
 * or not, goes to the loop's {@link LatencyRecorder}; a closed loop continues after a failure.
 */
public final class LoadDriver {
    /**
     * What a closed-loop worker runs on. Platform threads by default: a worker blocks in a JDBC
     * socket read on every query, and on a virtual thread every such block unmounts and remounts
     * the carrier (measured by {@code stillwater measure harness}: plain pgjdbc loops on virtual
     * threads reached 0.68x the qps of the same loops on platform threads on 2 cores). Closed
     * loops have few workers (one per connection), so a platform thread each is cheap.
     */
    public enum WorkerThreads {
        PLATFORM,
        VIRTUAL
    }

    private final Function<Throwable, String> describeError;
    private final WorkerThreads workerThreads;

    /** @param describeError turns a failure into the text it is counted under (e.g. "SQLSTATE: message") */
    public LoadDriver(Function<Throwable, String> describeError) {
        this(describeError, WorkerThreads.PLATFORM);
    }

    /** @param workerThreads what each closed-loop worker runs on */
    public LoadDriver(Function<Throwable, String> describeError, WorkerThreads workerThreads) {
        this.describeError = describeError;
        this.workerThreads = workerThreads;
    }

    /**
     * @param originNanos {@link System#nanoTime()} value that time-series offsets are relative to
     *     (the scenario's first load phase start), so phases line up on one time axis
     */
    public LoadPhaseReport run(Duration duration, List<BoundLoop> loops, long originNanos) throws Exception {
        // Open every invoker before the clock starts: connection setup is outside timing.
        List<List<Invoker>> invokers = new ArrayList<>();
        try {
            for (BoundLoop b : loops) {
                int n = b.loop() instanceof Loop.ClosedLoop c ? c.loops() : 1;
                List<Invoker> mine = new ArrayList<>();
                invokers.add(mine);
                for (int i = 0; i < n; i++) {
                    mine.add(b.invokers().open());
                }
            }
            return drive(duration, loops, invokers, originNanos);
        } finally {
            Exception first = null;
            for (List<Invoker> l : invokers) {
                for (Invoker inv : l) {
                    try {
                        inv.close();
                    } catch (Exception e) {
                        if (first == null) {
                            first = e;
                        }
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }

    private LoadPhaseReport drive(Duration duration, List<BoundLoop> loops, List<List<Invoker>> invokers,
            long originNanos) throws InterruptedException {
        // Schedules are fixed before the start; seeded by action name so both sides see the same arrivals.
        List<long[]> schedules = new ArrayList<>();
        for (BoundLoop b : loops) {
            schedules.add(b.loop() instanceof Loop.OpenLoop o
                    ? o.arrival().schedule(duration, new SplittableRandom(b.recorder().action().hashCode()))
                    : null);
        }
        List<Dispatcher> dispatchers = new ArrayList<>();
        List<ClosedCounter> closedCounters = new ArrayList<>();
        List<Thread> closedWorkers = new ArrayList<>();
        long start;
        long finished;
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            start = System.nanoTime();
            long end = start + duration.toNanos();
            for (int i = 0; i < loops.size(); i++) {
                BoundLoop b = loops.get(i);
                if (b.loop() instanceof Loop.OpenLoop) {
                    Dispatcher d = new Dispatcher(b.recorder(), invokers.get(i).getFirst(), schedules.get(i), start,
                            originNanos, workers);
                    dispatchers.add(d);
                    d.thread.start();
                } else {
                    ClosedCounter counter = new ClosedCounter(b.recorder().action());
                    closedCounters.add(counter);
                    int n = 0;
                    for (Invoker inv : invokers.get(i)) {
                        closedWorkers.add(workerThread("closed-loop " + b.recorder().action() + " #" + n++)
                                .start(() -> closedLoop(b.recorder(), inv, end, originNanos, counter)));
                    }
                }
            }
            for (Dispatcher d : dispatchers) {
                d.thread.join();
            }
            for (Thread w : closedWorkers) {
                w.join(); // a worker ends after its last query (at or after `end`)
            }
        } // close() waits for every submitted open-loop query: the phase ends when its last query finished
        finished = System.nanoTime();
        long wall = finished - start;
        List<LoopReport> reports = new ArrayList<>();
        int di = 0;
        int ci = 0;
        for (BoundLoop b : loops) {
            b.recorder().addWallTime(wall);
            if (b.loop() instanceof Loop.OpenLoop) {
                Dispatcher d = dispatchers.get(di++);
                reports.add(new LoopReport(b.recorder().action(), LoopReport.Kind.OPEN, d.issued,
                        d.lateness.getMaxValue() / 1e3, d.lateness.getValueAtPercentile(99) / 1e3));
            } else {
                ClosedCounter c = closedCounters.get(ci++);
                reports.add(new LoopReport(b.recorder().action(), LoopReport.Kind.CLOSED, c.issued.sum(), 0, 0));
            }
        }
        return new LoadPhaseReport(wall / 1e9, reports);
    }

    private Thread.Builder workerThread(String name) {
        // daemon: a worker stuck in a query the target never answers must not keep the JVM alive
        return switch (workerThreads) {
            case PLATFORM -> Thread.ofPlatform().daemon().name(name);
            case VIRTUAL -> Thread.ofVirtual().name(name);
        };
    }

    /** One closed-loop worker: runs on its own thread until {@code end}, then finishes its last query. */
    private void closedLoop(LatencyRecorder recorder, Invoker inv, long end, long originNanos, ClosedCounter counter) {
        while (System.nanoTime() < end) {
            long s = System.nanoTime();
            counter.issued.increment();
            execute(recorder, inv, s, originNanos);
        }
    }

    /** Runs one query timed from {@code startNanos} (the scheduled start for open loops). */
    private void execute(LatencyRecorder recorder, Invoker inv, long startNanos, long originNanos) {
        try {
            inv.invoke();
            recorder.recordSuccess(startNanos - originNanos, System.nanoTime() - startNanos);
        } catch (Throwable t) {
            recorder.recordFailure(startNanos - originNanos, System.nanoTime() - startNanos, describe(t));
        }
    }

    private String describe(Throwable t) {
        try {
            return describeError.apply(t);
        } catch (RuntimeException e) {
            return t.getClass().getName() + ": " + t.getMessage();
        }
    }

    private static void sleepUntil(long deadline) {
        long now;
        while ((now = System.nanoTime()) < deadline) {
            LockSupport.parkNanos(deadline - now);
        }
    }

    private record ClosedCounter(String action, LongAdder issued) {
        ClosedCounter(String action) {
            this(action, new LongAdder());
        }
    }

    /** Issues one open loop's schedule; owned by its own platform thread until joined. */
    private final class Dispatcher {
        final Thread thread;
        final Histogram lateness = new Histogram(3);
        long issued;

        Dispatcher(LatencyRecorder recorder, Invoker inv, long[] schedule, long start, long originNanos,
                ExecutorService workers) {
            thread = Thread.ofPlatform().daemon().name("open-loop " + recorder.action()).unstarted(() -> {
                for (long offset : schedule) {
                    long scheduled = start + offset;
                    sleepUntil(scheduled);
                    // late dispatch still issues the event; its latency counts from `scheduled`
                    lateness.recordValue(Math.max(0, System.nanoTime() - scheduled) / 1_000);
                    issued++;
                    workers.submit(() -> execute(recorder, inv, scheduled, originNanos));
                }
            });
        }
    }
}
