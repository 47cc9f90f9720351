package io.stillwater.engine.session;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.FinishedRows;
import io.stillwater.engine.memory.QueryMemory;
import java.util.List;
import java.util.function.Supplier;

/**
 * The rows of one SELECT as the wire layer pulls them: finishing applied lazily over
 * the read ({@link FinishedRows}). Errors while pulling are the statement's errors (the
 * transaction fails; a non-SQL exception becomes XX000). Closing releases the read's
 * snapshots and holds ({@link FinishedRows#close}) and memory; until then the statement
 * counts as running for {@link Session#cancel}. Session thread only.
 */
final class StatementStream implements RowStream {
    /** Rows the first pull computes before execute returns, so small results and early errors surface there. */
    static final int PRIMED_ROWS = 1024;

    /** The session that owns the stream: it counts open streams and turns failures into the statement's errors. */
    interface Owner {
        void opened(StatementStream stream);

        /** The stream's read ended (finished, failed or closed): it no longer counts as running. */
        void released(StatementStream stream);

        /** What to throw for a failure while producing rows (the transaction fails; XX000 for a bug). */
        RuntimeException failed(Throwable failure);
    }

    private final FinishedRows rows;
    private final QueryMemory memory;
    private final Cancellation cancel;
    /** Read inside an explicit transaction, from its pinned inputs: closed when it ends. */
    private final boolean inTransaction;
    private final Owner owner;
    private List<Row> primed = List.of();
    private int primedPosition;
    private boolean finished;
    private boolean released;
    private boolean closed;

    StatementStream(FinishedRows rows, QueryMemory memory, Cancellation cancel, boolean inTransaction, Owner owner) {
        this.rows = rows;
        this.memory = memory;
        this.cancel = cancel;
        this.inTransaction = inTransaction;
        this.owner = owner;
        owner.opened(this);
    }

    /** Whether it reads inside an explicit transaction (from its pinned inputs): closed when the transaction ends. */
    boolean inTransaction() { return inTransaction; }

    /** Computes the first rows; a result that fits is complete, and its read released, at once. */
    void prime() {
        try {
            primed = pull(PRIMED_ROWS);
            if (primed.size() < PRIMED_ROWS) {
                finished = true;
                release();
            }
        } catch (Throwable e) {
            close();
            throw e;
        }
    }

    @Override
    public List<Row> next(int max) {
        if (max < 1) throw new IllegalArgumentException("max must be at least 1: " + max);
        // While the read is open the statement runs: a cancel or timeout stops every pull,
        // also one served from the primed rows. A finished result only hands rows over.
        if (!released) pull(() -> {
            cancel.check();
            return null;
        });
        if (primedPosition < primed.size()) {
            int from = primedPosition;
            primedPosition = (int) Math.min((long) from + max, primed.size());
            List<Row> batch = primed.subList(from, primedPosition);
            if (primedPosition == primed.size()) primed = List.of(); // let them go once sent
            if (primed.isEmpty()) primedPosition = 0;
            return batch;
        }
        if (finished || closed) return List.of();
        List<Row> batch = pull(max);
        if (batch.size() < max) {
            finished = true;
            release();
        }
        return batch;
    }

    /** Finished (or closed) with every primed row handed over: {@link #next} returns empty from now on. */
    @Override
    public boolean exhausted() {
        return (finished || closed) && primedPosition >= primed.size();
    }

    private List<Row> pull(int max) { return pull(() -> rows.next(max)); }

    /** Runs {@code step} of the read; an error ends the stream and fails the transaction. */
    private List<Row> pull(Supplier<List<Row>> step) {
        try {
            return step.get();
        } catch (Throwable e) {
            finished = true;
            primed = List.of();
            try {
                release();
            } catch (Throwable releaseFailure) {
                e.addSuppressed(releaseFailure);
            }
            throw owner.failed(e);
        }
    }

    /** Ends the read: snapshots, holds and memory go; the statement no longer counts as running. */
    private void release() {
        if (released) return;
        released = true;
        try {
            rows.close();
        } finally {
            memory.close();
            owner.released(this);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        primed = List.of();
        release();
    }
}
