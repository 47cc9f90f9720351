package io.stillwater.engine.coord;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.time.TimestampOracle;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write pipeline: every change to the database (table writes, DDL, ALTER SYSTEM) gets
 * a timestamp from the oracle, goes to the write-ahead log (group-committed), and is
 * applied to memory in timestamp order once durable; when nothing is written for {@link
 * #IDLE_TICK_MS} an idle tick advances time without a record.
 *
 * <p>Locks, in acquisition order (both owned here; collaborators in this package take them
 * through {@link #sequenced} and {@link #applyLock()}):
 * <ul>
 *   <li>{@code writeLock} orders timestamp assignment with log appends, so log order is
 *       timestamp order. Read-modify-write statements (UPDATE, DELETE, INSERT ... SELECT)
 *       hold it across their read and their append ({@link #serialized}), which
 *       serializes them with every other write (no lost updates, no double retractions).
 *       DDL holds it from validation to its last record ({@link #sequenced}).</li>
 *   <li>{@code applyLock} (a monitor) guards {@code pending}, applying records (the
 *       {@link Applier}), the oracle's applied timestamp and the catalog publication.
 *       Readers take it briefly to choose a read timestamp and place read holds
 *       atomically with respect to compaction ({@link ReadTimestamps}).</li>
 * </ul>
 * A write is acknowledged (its caller returns) only after it is durable AND applied, so
 * a strict serializable read issued afterwards sees it.
 *
 * <p>Threads: writers (session threads) submit and wait; the log's group-commit thread
 * completes their durability futures; whichever writer finds durable records at the head
 * of {@code pending} applies them (under applyLock). The {@code stillwater-idle-tick}
 * thread runs {@link #idleTick}.
 *
 * <p><b>Write backpressure.</b> Before a table write takes the write lock it is admitted
 * by {@link WriteAdmission}: while some replica's maintenance backlog is older than
 * {@code max_maintenance_lag}, writers wait there (bounded by their statement timeout and
 * cancellation), so acknowledged writes cannot outrun maintenance and fill the heap.
 *
 * <p><b>Applying is all or nothing per record.</b> A durable record is first
 * <em>prepared</em> (everything that allocates or can fail) without changing anything,
 * then <em>published</em> (installed, handed to the replicas, the read timestamp
 * advanced). It leaves {@code pending} only once published. A failed preparation leaves
 * everything untouched and is retried once at once (a transient failure, such as an
 * allocation that failed while another query held the heap, then costs nothing: the
 * write is acknowledged normally). If it fails again, or publishing fails half-way,
 * memory no longer matches the log: the pipeline <em>stops</em> (every later write and
 * DDL fails with XX000 {@code could not apply a committed write; restart the server},
 * reads keep the last consistent state) and tells the {@link #onStopped} handler, with
 * which {@code serve} exits so that a supervisor restarts it and recovery replays the log.
 */
final class WritePipeline {
    private static final Logger LOG = LoggerFactory.getLogger(WritePipeline.class);

    /** How long without an applied write before the idle tick advances time, in ms. */
    static final long IDLE_TICK_MS = 100;

    /** What a durable record does to memory; see the class comment. */
    interface Applier {
        /**
         * Prepares {@code record} at {@code time} without changing anything; the caller
         * publishes the result right away. Holds applyLock.
         */
        Prepared prepare(LogRecord record, long time);

        /** Moves every frontier past {@code time} without data (an idle tick). Holds writeLock and applyLock. */
        void advanceIdle(long time);
    }

    /** A durable record made ready to apply: everything that allocates or can fail is done. */
    @FunctionalInterface
    interface Prepared {
        /** Installs the record in memory and hands it to the replicas. Holds applyLock. */
        void publish();
    }

    /** Builds the record to log once its timestamp is known. */
    @FunctionalInterface
    interface RecordAt {
        LogRecord at(long ts);
    }

    private record Pending(long time, LogRecord record, CompletableFuture<Void> durable) {}

    private final WriteAheadLog log;
    private final TimestampOracle oracle;
    private final Applier applier;
    /** Write backpressure: admits table writes while every replica's maintenance keeps up. */
    private final WriteAdmission admission;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Object applyLock = new Object();
    /** Appended, not yet applied, in log (= timestamp) order. Guarded by applyLock. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /**
     * Non-null once a committed record could not be applied: the pipeline accepts no more
     * writes (see the class comment). Written under applyLock, read anywhere.
     */
    private volatile SqlException stopped;
    /** Told (once, on its own thread) when the pipeline stops; see {@link #onStopped}. */
    private volatile Consumer<SqlException> stoppedHandler = e -> {};
    /** System.nanoTime() of the last applied write or idle tick. Written under applyLock. */
    private volatile long lastAdvanceNanos = System.nanoTime();
    /** Advances time when no write has been applied for {@link #IDLE_TICK_MS}; see {@link #idleTick()}. */
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stillwater-idle-tick");
        t.setDaemon(true);
        return t;
    });

    /** Unique indexes, checked for every table write under the write lock (see {@link #submitTableWrite}). */
    private final UniqueConstraints constraints;

    WritePipeline(WriteAheadLog log, TimestampOracle oracle, Applier applier, WriteAdmission admission,
                  UniqueConstraints constraints) {
        this.log = log;
        this.oracle = oracle;
        this.applier = applier;
        this.admission = admission;
        this.constraints = constraints;
    }

    UniqueConstraints constraints() { return constraints; }

    /** The monitor guarding applying, the applied timestamp and the replicas' membership. */
    Object applyLock() { return applyLock; }

    TimestampOracle oracle() { return oracle; }

    /** After recovery: starts the idle ticks. */
    void startTicking() {
        ticker.scheduleWithFixedDelay(this::idleTickSafely, IDLE_TICK_MS / 2, IDLE_TICK_MS / 2, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- table writes

    /**
     * Makes {@code changes} durable and visible at one new timestamp, atomically, admitted
     * by write backpressure first (waits within {@code limit}). Inside {@link #serialized}
     * the write was admitted there and goes straight on. Returns the timestamp once
     * applied; an empty change list commits nothing and returns the current read timestamp.
     *
     * @throws SqlException 57014 when {@code limit} cancels the wait (nothing was written);
     *                      XX000 once the pipeline stopped
     */
    long commit(List<TableChange> changes, AdmissionLimit limit) {
        if (changes.isEmpty()) return oracle.readTimestamp();
        checkNotStopped();
        // Holding the write lock, this thread was admitted by serialized(): never wait with the lock held.
        if (writeLock.isHeldByCurrentThread()) return submitTableWrite(changes);
        try (WriteAdmission.Ticket admitted = admission.admit(limit.cancel(), limit.deadlineNanos())) {
            return submitTableWrite(changes);
        }
    }

    /**
     * A table write: its unique keys are checked and recorded under the write lock, before
     * it gets a timestamp, so writers are checked in the order they are logged (23505
     * leaves nothing behind).
     */
    private long submitTableWrite(List<TableChange> changes) {
        return submit(ts -> new LogRecord.TableWrite(ts, List.copyOf(changes)),
                () -> constraints.admit(changes, this::awaitAllApplied, oracle::readTimestamp));
    }

    /**
     * Runs {@code work} (a read-modify-write: UPDATE, DELETE, INSERT ... SELECT) holding
     * the write lock after every earlier write has been applied, so a read inside it at
     * the read timestamp sees the latest state and no other write interleaves before its
     * own commit. Admitted by write backpressure (within {@code limit}) before it takes
     * the lock, so its commit inside {@code work} does not wait again.
     */
    <T> T serialized(AdmissionLimit limit, Supplier<T> work) {
        checkNotStopped();
        if (writeLock.isHeldByCurrentThread()) return work.get(); // nested: admitted by the outer call
        try (WriteAdmission.Ticket admitted = admission.admit(limit.cancel(), limit.deadlineNanos())) {
            return sequenced(work);
        }
    }

    /**
     * Runs {@code work} (DDL, hydration) holding the write lock after every earlier
     * record has been applied: nothing is pending while it validates against memory, and
     * the records it submits follow one another with no write between. Reentrant.
     */
    <T> T sequenced(Supplier<T> work) {
        writeLock.lock();
        try {
            awaitAllApplied();
            return work.get();
        } finally {
            writeLock.unlock();
        }
    }

    /** {@link #sequenced(Supplier)} without a result. */
    void sequenced(Runnable work) {
        sequenced(() -> {
            work.run();
            return null;
        });
    }

    // ---------------------------------------------------------------- submit and apply

    /**
     * Assigns a timestamp, appends, waits until durable and applied. A failure before the
     * append (the WRITE fault point included) leaves nothing behind: the lock is released
     * and nothing is pending.
     */
    long submit(RecordAt make) { return submit(make, () -> { }); }

    /** {@link #submit(RecordAt)}, running {@code check} under the write lock first (it may refuse the write). */
    private long submit(RecordAt make, Runnable check) {
        Pending p;
        writeLock.lock();
        try {
            checkNotStopped();
            check.run();
            FaultPoints.hit(FaultPoints.Point.WRITE);
            long ts = oracle.writeTimestamp();
            LogRecord record = make.at(ts);
            CompletableFuture<Void> durable = log.appendAsync(record);
            try {
                p = new Pending(ts, record, durable);
                synchronized (applyLock) {
                    pending.addLast(p);
                }
            } catch (Throwable t) {
                // Appended but not tracked: the log holds a record memory never applies.
                synchronized (applyLock) {
                    stop(ts, t);
                }
                throw stoppedError();
            }
        } finally {
            writeLock.unlock();
        }
        try {
            p.durable().join();
        } catch (CompletionException e) {
            // Not durable: never applied, never acknowledged. Later records fail too
            // (the log is poisoned), so drop everything pending from this one on.
            synchronized (applyLock) {
                pending.remove(p);
                applyLock.notifyAll();
            }
            forgetConstraints();
            if (e.getCause() instanceof SqlException se) throw se;
            throw new SqlException(SqlState.IO_ERROR, "could not write to the log: " + e.getCause(), null, null, e);
        }
        synchronized (applyLock) {
            drainDurable();
            while (oracle.readTimestamp() < p.time() && pending.contains(p)) {
                // Durable but not applied, and never will be by this process.
                if (stopped != null) throw stoppedError();
                try {
                    applyLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to interrupt");
                }
                drainDurable();
            }
        }
        return p.time();
    }

    /**
     * Applies every durable record at the head of {@code pending}, in order. A record
     * leaves {@code pending} only once published. Never throws: a record that cannot be
     * applied stops the pipeline ({@link #stop}); its writer and every later one then
     * fail with {@link #stoppedError()}. Holds applyLock.
     */
    private void drainDurable() {
        boolean any = false;
        while (stopped == null && !pending.isEmpty() && pending.peekFirst().durable().isDone()) {
            Pending head = pending.peekFirst();
            if (head.durable().isCompletedExceptionally()) {
                pending.pollFirst(); // never durable: its writer fails; nothing to apply
                continue;
            }
            Prepared ready = prepareWithRetry(head);
            if (ready == null) break; // stopped
            try {
                ready.publish();
            } catch (Throwable t) {
                // Half installed: tables, replicas and oracle may disagree. No retry.
                stop(head.time(), t);
                break;
            }
            pending.pollFirst();
            oracle.applyWrite(head.time());
            any = true;
        }
        if (any || stopped != null) {
            if (any) lastAdvanceNanos = System.nanoTime();
            applyLock.notifyAll();
        }
    }

    /**
     * Prepares {@code head}; on failure (nothing changed) tries once more at once. Returns
     * null when the second attempt fails too: the pipeline is stopped then. Holds applyLock.
     */
    private Prepared prepareWithRetry(Pending head) {
        try {
            return applier.prepare(head.record(), head.time());
        } catch (Throwable first) {
            LOG.warn("applying the committed write at {} failed; nothing was changed, retrying once", head.time(), first);
        }
        try {
            return applier.prepare(head.record(), head.time());
        } catch (Throwable second) {
            stop(head.time(), second);
            return null;
        }
    }

    /** The write this thread admitted was not made durable: unique keys are rebuilt from the tables. */
    private void forgetConstraints() {
        writeLock.lock();
        try {
            constraints.forget();
        } finally {
            writeLock.unlock();
        }
    }

    /** Waits until every appended record is applied (or failed). Caller holds writeLock. */
    private void awaitAllApplied() {
        List<CompletableFuture<Void>> futures;
        synchronized (applyLock) {
            futures = pending.stream().map(Pending::durable).toList();
        }
        for (var f : futures) {
            try {
                f.join();
            } catch (CompletionException ignored) {
                // reported to that write's own caller
            }
        }
        synchronized (applyLock) {
            drainDurable();
        }
    }

    // ---------------------------------------------------------------- stopping

    /**
     * The record at {@code time} is durable but cannot be applied: stops accepting writes
     * (memory would be behind the log) and tells the {@link #onStopped} handler on a new
     * thread (it may exit the process, which runs shutdown hooks that need these locks).
     * Holds applyLock; idempotent.
     */
    private void stop(long time, Throwable cause) {
        if (stopped != null) return;
        String incident = Long.toHexString(System.nanoTime() ^ time).toUpperCase(Locale.ROOT);
        LOG.error("[incident {}] could not apply the committed write at {}: the engine accepts no more writes; "
                + "restart it to recover from the log", incident, time, cause);
        stopped = new SqlException(SqlState.INTERNAL_ERROR,
                "internal error: could not apply a committed write; restart the server",
                "The write is durable in the log and is applied when the server restarts (incident " + incident
                        + " in the server log).", null);
        applyLock.notifyAll();
        tellStopped(stoppedHandler, stopped);
    }

    /** Runs {@code handler} on a thread of its own; never throws (the caller may hold the apply lock). */
    private static void tellStopped(Consumer<SqlException> handler, SqlException reason) {
        try {
            Thread.ofPlatform().daemon().name("stillwater-stopped").start(() -> handler.accept(reason));
        } catch (Throwable t) { // e.g. no memory for a thread: writes are refused all the same
            LOG.error("could not report that the engine stopped", t);
        }
    }

    /** The error every write gets once the pipeline stopped (a fresh exception per caller). */
    private SqlException stoppedError() {
        SqlException s = stopped;
        return new SqlException(s.state(), s.getMessage(), s.detail(), s.hint());
    }

    private void checkNotStopped() {
        if (stopped != null) throw stoppedError();
    }

    /** Whether a committed write could not be applied (see the class comment): writes are refused. */
    boolean isStopped() { return stopped != null; }

    /** Tells {@code handler} (once, on a thread of its own) when the pipeline stops. */
    void onStopped(Consumer<SqlException> handler) {
        stoppedHandler = handler;
        SqlException s = stopped;
        if (s != null) tellStopped(handler, s);
    }

    // ---------------------------------------------------------------- idle tick

    private void idleTickSafely() {
        try {
            idleTick();
        } catch (Throwable e) {
            // Never let it escape: the scheduler would silently stop ticking for good.
            LOG.warn("idle tick failed", e);
        }
    }

    /**
     * When no write has been applied for {@link #IDLE_TICK_MS}, advances time as an
     * empty write would, without a log record: a new timestamp from the oracle, every
     * frontier past it ({@link Applier#advanceIdle}), and the read timestamp moved to it.
     * So freshness lag stays small and serializable reads see recent data without writes.
     * Skips (tries again later) while a write holds the write lock or is pending: log
     * order must stay timestamp order, and a write advances time anyway.
     */
    void idleTick() {
        if (System.nanoTime() - lastAdvanceNanos < IDLE_TICK_MS * 1_000_000) return;
        if (!writeLock.tryLock()) return;
        try {
            synchronized (applyLock) {
                if (!pending.isEmpty()) return;
                advanceIdle();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Advances every frontier to a new timestamp without data. Holds writeLock and applyLock; nothing pending. */
    private void advanceIdle() {
        long ts = oracle.writeTimestamp();
        applier.advanceIdle(ts);
        oracle.applyWrite(ts);
        lastAdvanceNanos = System.nanoTime();
        applyLock.notifyAll();
    }

    /**
     * Advances time now as an idle tick does, whatever the time since the last write,
     * after every pending write is applied. Returns the new read timestamp.
     */
    long advanceTime() {
        return sequenced(() -> {
            synchronized (applyLock) {
                advanceIdle();
                return oracle.readTimestamp();
            }
        });
    }

    /**
     * Stops the idle ticks, waits for every pending record, closes the log (which lives as
     * long as this pipeline) and then runs {@code alsoUnderLock} (closing the replicas),
     * all holding the write lock so no write is in between.
     */
    void close(Runnable alsoUnderLock) {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sequenced(() -> {
            log.close();
            alsoUnderLock.run();
        });
    }
}
