package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Background load for {@code measure runtimes}: full walks of an index at a fixed rate on
 * one connection (open loop: walk i is scheduled at start + i / rate; a walk that overruns
 * its slot delays the next, so the achieved rate is reported). The thread is owned by this
 * object; {@link #stop()} ends it and returns what it did.
 */
final class PacedWalker {
    /** Opens a session on the measured cluster. */
    @FunctionalInterface
    interface Sessions {
        Connection open() throws SQLException;
    }

    /**
     * @param walks   walks completed
     * @param seconds how long the walker ran
     * @param latency walk latency in microseconds
     * @param wrong   walks that did not return exactly one row
     * @param error   why the walker stopped early, if it did
     */
    record Result(long walks, double seconds, LatencySummary latency, long wrong, Optional<String> error) {
        double walksPerSecond() { return seconds > 0 ? walks / seconds : 0; }
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Histogram micros = LatencySummary.newHistogram();
    private final Thread thread;
    private final long startNanos = System.nanoTime();
    private volatile long walks;
    private volatile long wrong;
    private volatile long endNanos;
    private volatile String error;

    /** Starts walking {@code sql} (which must return exactly one row) {@code perSecond} times a second. */
    PacedWalker(Sessions sessions, String sql, double perSecond) {
        long intervalNanos = (long) (1e9 / perSecond);
        thread = Thread.ofPlatform().name("measure-walker").daemon().start(() -> {
            try (Connection c = sessions.open(); PreparedStatement ps = c.prepareStatement(sql)) {
                long next = System.nanoTime();
                while (running.get()) {
                    long start = System.nanoTime();
                    int rows = Sql.drain(ps);
                    synchronized (micros) {
                        micros.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                    }
                    if (rows != 1) wrong++;
                    walks++;
                    next += intervalNanos;
                    long wait;
                    while (running.get() && (wait = next - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
                }
            } catch (SQLException e) {
                error = e.getSQLState() + ": " + e.getMessage();
            } finally {
                endNanos = System.nanoTime();
            }
        });
    }

    /** Stops after the walk in flight and returns the figures. */
    Result stop() throws InterruptedException {
        running.set(false);
        thread.join();
        LatencySummary latency;
        synchronized (micros) {
            latency = LatencySummary.of(micros);
        }
        return new Result(walks, (endNanos - startNanos) / 1e9, latency, wrong, Optional.ofNullable(error));
    }
}
