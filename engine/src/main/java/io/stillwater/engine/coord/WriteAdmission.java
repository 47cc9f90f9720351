package io.stillwater.engine.coord;

import io.stillwater.engine.compute.MaintenanceBacklog;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Write backpressure: a write is admitted only while every replica's maintenance backlog
 * ({@link MaintenanceBacklog}), counting the writes already admitted and not yet handed
 * to the replicas, is under {@code max_maintenance_lag}. Past it the writer waits here,
 * before it takes the coordinator's write lock (so waiting writers never block DDL, reads
 * or the writes already admitted), until maintenance catches up, the statement times out
 * or is cancelled. So ingest follows what maintenance sustains, and the queue of writes
 * handed to the replicas (and the memory it holds) stays bounded.
 *
 * <p><b>Order.</b> Waiting writers queue FIFO: only the head of the queue is admitted,
 * and a newcomer never overtakes a waiting writer, so writes are admitted in the order
 * they arrived. Each admitted write counts as queued maintenance work (at the replicas'
 * recent cost per write) until it has been handed over, so admissions stop as soon as
 * the projected backlog reaches the bound; the backlog overshoots the bound by at most
 * the writes admitted while the cost estimate was low (one group, at most one per
 * concurrent writer).
 *
 * <p><b>Waking.</b> Writers await a condition signalled when a worker finishes a write
 * ({@link #progressed}, called on worker threads), when an admitted write is handed over
 * or fails, when replicas come or go and when the bound changes. A waiting writer also
 * wakes at its statement deadline, and every {@link #CANCEL_CHECK_MS} to notice a cancel
 * request (cancellation is a flag the session's {@link Cancellation} reads).
 *
 * <p>Thread-safety: any thread. {@code lock} guards {@code queue}; {@code waiting} mirrors
 * the queue's size for the lock-free fast path of {@link #progressed}.
 */
final class WriteAdmission {
    /** How often a waiting writer checks for a cancel request between progress signals. */
    static final long CANCEL_CHECK_MS = 50;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Writers waiting for admission, in arrival order. Guarded by lock. */
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private final AtomicInteger waiting = new AtomicInteger();
    /** Writes admitted and not yet handed to the replicas (or failed): queued work the backlog does not show yet. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** The bound in ms; 0 turns backpressure off. Read at every admission (ALTER SYSTEM applies at once). */
    private final LongSupplier boundMillis;
    /** The slowest replica's backlog now. */
    private final Supplier<MaintenanceBacklog.Status> backlog;

    // ---- statistics (introspection), any thread
    private final AtomicLong admittedAfterWait = new AtomicLong();
    private final AtomicLong waitedNanos = new AtomicLong();

    WriteAdmission(LongSupplier boundMillis, Supplier<MaintenanceBacklog.Status> backlog) {
        this.boundMillis = boundMillis;
        this.backlog = backlog;
    }

    /**
     * An admitted write. Close it once the write was handed to the replicas (applied) or
     * failed: until then it counts as queued maintenance work.
     *
     * @param place 0 when admitted without waiting, else the writer's place among the
     *              writes admitted after waiting (1, 2, ...: arrival order)
     */
    record Ticket(WriteAdmission admission, long place) implements AutoCloseable {
        @Override
        public void close() {
            admission.inFlight.decrementAndGet();
            admission.progressed();
        }
    }

    /**
     * Returns once the write may proceed. Waits while the projected backlog is at or over
     * the bound or an earlier writer is still waiting.
     *
     * @param cancel        checked while waiting: throws 57014 on a cancel request or once the
     *                      statement's timeout passed
     * @param deadlineNanos {@link System#nanoTime()} at which the statement times out; 0: none
     * @throws SqlException 57014 from {@code cancel} (or {@code canceling statement due to
     *                      statement timeout} at the deadline); nothing of the write happened
     */
    Ticket admit(Cancellation cancel, long deadlineNanos) {
        if (waiting.get() == 0 && underBound()) { // fast path: nobody queued, maintenance keeps up
            inFlight.incrementAndGet();
            return new Ticket(this, 0);
        }
        Object me = new Object();
        long start = System.nanoTime();
        long place;
        lock.lock();
        try {
            queue.addLast(me);
            waiting.incrementAndGet();
            try {
                while (queue.peekFirst() != me || !underBound()) {
                    cancel.check();
                    long waitNanos = TimeUnit.MILLISECONDS.toNanos(CANCEL_CHECK_MS);
                    if (deadlineNanos != 0) {
                        long left = deadlineNanos - System.nanoTime();
                        if (left <= 0) {
                            cancel.check(); // its own deadline has passed too: its message
                            throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to statement timeout");
                        }
                        waitNanos = Math.min(waitNanos, left);
                    }
                    changed.awaitNanos(waitNanos);
                }
                inFlight.incrementAndGet(); // before the next head looks: it sees this write as queued
                place = admittedAfterWait.incrementAndGet(); // under the lock: in queue order
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to interrupt");
            } finally {
                // Admitted or given up: leave the queue, and let the next writer look.
                queue.remove(me);
                waiting.decrementAndGet();
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        waitedNanos.addAndGet(System.nanoTime() - start);
        return new Ticket(this, place);
    }

    private boolean underBound() {
        long bound = boundMillis.getAsLong();
        return bound <= 0 || backlog.get().lagNanos(inFlight.get()) < TimeUnit.MILLISECONDS.toNanos(bound);
    }

    /**
     * Maintenance made progress, an admitted write finished, a replica came or went, or
     * the bound changed: waiting writers look again. Any thread; costs one atomic read
     * when nobody waits.
     */
    void progressed() {
        if (waiting.get() == 0) return;
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Writers waiting for admission now. */
    int waiting() { return waiting.get(); }

    /** Writes admitted and not yet handed to the replicas. */
    int inFlight() { return inFlight.get(); }

    /** Writes admitted after waiting, since start. */
    long admittedAfterWait() { return admittedAfterWait.get(); }

    /** Total time writers spent waiting for admission, since start, in ms. */
    long waitedMillis() { return waitedNanos.get() / 1_000_000; }
}
