package io.stillwater.engine.compute;

import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One read being served by a {@link ComputeReplica}: its lifecycle, placement and result.
 *
 * <p><b>States.</b> {@code QUEUED} (waiting in a worker loop, solo or maintenance) →
 * {@code RUNNING} (its inline part, on the worker or, interactive, on the caller's thread)
 * → {@code PARKED} (a walk past its inline budget waiting for an offload slot) →
 * {@code OFFLOADED} (running on the offload pool) → {@code DONE}. A streamed read (a peek
 * dataflow on the interactive runtime whose rows the session pulls after {@link #await})
 * stays {@code RUNNING} until the session reports its end ({@link #streamEnded}). Every transition is a
 * compare-and-set on {@link #state}, so a cancel racing a start has one winner: a queued or
 * parked read that is cancelled never starts; a running one sees the cancellation at its
 * next check (every {@code compute_index_peek_yield_granularity} positions).
 *
 * <p><b>Threads.</b> The work is touched by one thread at a time: the thread that wins
 * the transition into RUNNING or OFFLOADED; hand-over to the pool goes through its queue.
 */
final class PeekTask<R> implements PeekHandle<R> {
    enum State { QUEUED, RUNNING, PARKED, OFFLOADED, DONE }

    /** How long an await blocks between cancellation checks. */
    private static final long POLL_MS = 5;

    final long id;
    final PeekRequest<R> request;
    final ComputeRuntime runtime;
    final long submittedNanos = System.nanoTime();
    private final ComputeReplica replica;
    private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);
    private final CompletableFuture<R> result = new CompletableFuture<>();
    private volatile SqlException canceledBy;
    private volatile boolean offloaded;
    /** Set once a streamed read handed its rows over; the session thread ends it. */
    private volatile boolean streaming;
    /** The work's view of cancellation: the session's, or this task's own cancel. */
    private final Cancellation cancel;

    PeekTask(long id, PeekRequest<R> request, ComputeRuntime runtime, ComputeReplica replica) {
        this.id = id;
        this.request = request;
        this.runtime = runtime;
        this.replica = replica;
        this.cancel = () -> {
            SqlException c = canceledBy;
            if (c != null) throw new SqlException(c.state(), c.getMessage());
            request.cancel().check();
        };
    }

    State state() { return state.get(); }

    @Override
    public ComputeRuntime runtime() { return runtime; }

    @Override
    public boolean offloaded() { return offloaded; }

    private long granularity() { return request.params().get(Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY); }

    /**
     * Runs the read's inline part on this thread (a worker loop, or the caller's thread
     * for the interactive runtime): a walk up to {@code compute_index_peek_inline_budget}
     * positions, then to the offload pool (when offload is on) or on to its end here.
     */
    void runInline() {
        if (!state.compareAndSet(State.QUEUED, State.RUNNING)) return; // cancelled while queued
        try {
            PeekWork<R> work = request.work();
            long budget = request.kind() == PeekKind.WALK
                    ? request.params().get(Params.COMPUTE_INDEX_PEEK_INLINE_BUDGET) : Long.MAX_VALUE;
            if (work.advance(budget, granularity(), cancel)) {
                if (work.streams()) {
                    // The rows are pulled later on this same (session) thread: hand them
                    // over and stay RUNNING (in mz_active_peeks) until streamEnded.
                    streaming = true;
                    result.complete(work.result());
                    return;
                }
                succeed(work.result());
                return;
            }
            if (request.params().get(Params.ENABLE_COMPUTE_INDEX_PEEK_OFFLOAD)) {
                offloaded = true;
                state.set(State.PARKED);
                replica.offloadPool().park(this);
                return;
            }
            // Offload off: the rest of the walk runs here, non-preemptively (the regression
            // the flag exists to show), still checking cancellation.
            while (!work.advance(Long.MAX_VALUE, granularity(), cancel)) {
                // next slice
            }
            succeed(work.result());
        } catch (Throwable t) {
            fail(t);
        }
    }

    /** On an offload thread: the rest of a parked walk. Returns false if it was cancelled meanwhile. */
    void runOffloaded() {
        if (!state.compareAndSet(State.PARKED, State.OFFLOADED)) return;
        try {
            PeekWork<R> work = request.work();
            while (!work.advance(Long.MAX_VALUE, granularity(), cancel)) {
                // next slice
            }
            succeed(work.result());
        } catch (Throwable t) {
            fail(t);
        }
    }

    /**
     * Stops the read: a queued or parked one completes with {@code reason} now and never
     * starts; a running one stops at its next cancellation check.
     */
    void cancel(SqlException reason) {
        canceledBy = reason;
        if (state.compareAndSet(State.QUEUED, State.DONE) || state.compareAndSet(State.PARKED, State.DONE)) {
            replica.offloadPool().unpark(this);
            finish(null, reason);
        }
    }

    /** A streamed read's end, reported by the session when it stops pulling. */
    @Override
    public void streamEnded(Throwable error) {
        if (!streaming || !state.compareAndSet(State.RUNNING, State.DONE)) return;
        replica.tracker().finished(this, error);
    }

    private void succeed(R value) {
        state.set(State.DONE);
        finish(value, null);
    }

    private void fail(Throwable t) {
        state.set(State.DONE);
        finish(null, t);
    }

    private void finish(R value, Throwable error) {
        replica.tracker().finished(this, error);
        if (error == null) result.complete(value);
        else result.completeExceptionally(error);
    }

    @Override
    public R await() {
        while (true) {
            try {
                return result.get(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                try {
                    request.cancel().check();
                } catch (SqlException canceled) {
                    cancel(canceled);
                    waitStopped();
                    throw canceled;
                }
            } catch (InterruptedException e) {
                SqlException canceled = new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to interrupt");
                cancel(canceled);
                Thread.currentThread().interrupt();
                throw canceled;
            } catch (ExecutionException e) {
                throw rethrow(e.getCause());
            }
        }
    }

    /** After a cancel: returns once the read no longer runs (it stops at its next check). */
    private void waitStopped() {
        boolean interrupted = false;
        while (!result.isDone()) {
            try {
                result.get(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException | TimeoutException e) {
                // done (or not yet): loop
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    /** How the read ended, as {@code mz_peek_history} shows it. */
    static String outcome(Throwable error) {
        if (error == null) return "success";
        if (error instanceof SqlException s && s.state() == SqlState.QUERY_CANCELED) return "canceled";
        return error.getMessage() == null ? error.toString() : error.getMessage();
    }
}
