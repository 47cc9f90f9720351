package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance runtime of a replica: {@code W} {@link Worker} threads, each running a
 * copy of every maintained dataflow over its hash partition of the data.
 *
 * <p>{@link #broadcast} appends a command to every worker's queue under one lock, so all
 * workers see one command order (the coordinator's timestamp order). That shared order is
 * the runtime's only synchronization besides the per-dataflow exchange barriers.
 */
final class MaintenanceRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceRuntime.class);

    private final Worker[] workers;
    private final Thread[] threads;
    private final MaintenanceBacklog backlog;
    private boolean closed; // guarded by this

    MaintenanceRuntime(int workerCount, ComputeReplica.Tuning tuning) {
        if (workerCount < 1) throw new IllegalArgumentException("a replica needs at least one worker, got " + workerCount);
        workers = new Worker[workerCount];
        threads = new Thread[workerCount];
        backlog = new MaintenanceBacklog(workerCount);
        for (int w = 0; w < workerCount; w++) {
            workers[w] = new Worker(w, workerCount, tuning, backlog);
            threads[w] = Thread.ofPlatform().daemon().name("stillwater-compute-" + w).unstarted(workers[w]);
        }
        for (Thread t : threads) t.start();
    }

    int workers() { return workers.length; }

    /** Every worker gets {@code c}, in the same position of its queue. Any thread. */
    synchronized void broadcast(Command c) {
        if (closed) return;
        for (Worker w : workers) w.enqueue(c);
    }

    /**
     * Every worker gets one committed write's changes, stamped for the {@link
     * MaintenanceBacklog} with the time it was handed over. Any thread.
     */
    synchronized void input(long time, Map<Long, Changes> changes) {
        if (closed) return;
        long now = System.nanoTime();
        Command c = new Command.Input(time, changes, backlog.handedOver(now), now);
        for (Worker w : workers) w.enqueue(c);
    }

    /** How far the workers trail the inputs handed to them. */
    MaintenanceBacklog backlog() { return backlog; }

    /**
     * Queues a read on worker 0, which serves it between commands (and between hydration
     * chunks): it waits behind whatever that worker is doing, and while it runs, that
     * worker does nothing else (peers stall at their next exchange with it). Any thread.
     */
    synchronized void serve(PeekTask<?> task) {
        if (closed) {
            task.cancel(new SqlException(SqlState.ADMIN_SHUTDOWN,
                    "terminating connection due to administrator command"));
            return;
        }
        workers[0].enqueue(new Command.Serve(task));
    }

    /**
     * Stops the workers after the commands already queued. The caller aborts every
     * dataflow's exchange hub first, so no worker waits at a barrier for a peer that left.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            for (Worker w : workers) {
                w.stopSoon();
                w.enqueue(Command.Stop.INSTANCE);
            }
        }
        backlog.clear(); // what is still queued will never be processed: nothing is pending
        for (Thread t : threads) {
            try {
                t.join(10_000);
                if (t.isAlive()) {
                    LOG.warn("{} did not stop within 10 s; interrupting it", t.getName());
                    t.interrupt();
                    t.join(5_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
