package io.stillwater.engine.compute;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * A replica's bounded pool for the rest of walks past their inline budget: a fixed number
 * of threads (one per maintenance worker, as Materialize's permit fraction of 1.0) and one
 * FIFO queue of parked walks.
 *
 * <p><b>Admission is bounded here and only here:</b> at most {@link #threads()} walks run
 * offloaded; every other walk past its budget <em>parks</em> in the queue (its snapshot
 * stays pinned) until a thread takes it. No walk ever falls back to running inline past
 * its budget because the pool is full. A parked walk that is cancelled leaves the queue
 * ({@link #unpark}) and never runs.
 */
final class OffloadPool implements AutoCloseable {
    private final LinkedBlockingDeque<PeekTask<?>> parked = new LinkedBlockingDeque<>();
    private final Thread[] threads;
    /** Tasks taken by a pool thread; running() counts those still OFFLOADED (not yet done). */
    private final Set<PeekTask<?>> taken = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    OffloadPool(String name, int size) {
        threads = new Thread[Math.max(1, size)];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = Thread.ofPlatform().daemon().name(name + "-offload-" + i).unstarted(this::loop);
            threads[i].start();
        }
    }

    int threads() { return threads.length; }

    /** Walks running on the pool now. */
    int running() {
        int n = 0;
        for (PeekTask<?> t : taken) if (t.state() == PeekTask.State.OFFLOADED) n++;
        return n;
    }

    /** Walks waiting for a pool thread now. */
    int parkedCount() { return parked.size(); }

    /** Queues {@code task} (state PARKED) for the next free thread. Any thread. */
    void park(PeekTask<?> task) {
        if (closed) {
            task.cancel(shutdown());
            return;
        }
        parked.add(task);
    }

    /** A cancelled parked walk leaves the queue. */
    void unpark(PeekTask<?> task) { parked.remove(task); }

    private void loop() {
        while (!closed) {
            PeekTask<?> t;
            try {
                t = parked.take();
            } catch (InterruptedException e) {
                return;
            }
            taken.add(t);
            try {
                t.runOffloaded();
            } finally {
                taken.remove(t);
            }
        }
    }

    private static SqlException shutdown() {
        return new SqlException(SqlState.ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    }

    /** Cancels parked walks and stops the threads (running walks see the replica's shutdown at their next check). */
    @Override
    public void close() {
        closed = true;
        List<PeekTask<?>> left = new ArrayList<>();
        parked.drainTo(left);
        for (PeekTask<?> t : left) t.cancel(shutdown());
        for (Thread t : threads) t.interrupt();
    }
}
