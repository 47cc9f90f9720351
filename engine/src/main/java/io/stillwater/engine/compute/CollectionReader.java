package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.expr.Expr;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Read access to one export's arrangement (an index, or a materialized view's output).
 * Thread-safe: any number of readers at once, concurrently with maintenance (readers
 * see published, immutable arrangement snapshots).
 */
public interface CollectionReader {
    /** The export (index or materialized view) whose arrangement this reads. */
    long exportId();

    /** The collection whose rows it holds. */
    long collectionId();

    /** The arrangement key: expressions over the collection's columns (all columns for a materialized view). */
    List<Expr> key();

    /** Every update at a time {@code < upper()} is final; {@code Long.MIN_VALUE} until hydrated. */
    long upper();

    /**
     * Whether the export's error collection holds an evaluation error in its newest
     * published state (an index whose key expression failed on some row). A read of a
     * table skips such an index and reads the table itself, so one user's bad index
     * cannot fail another user's reads; the answer may be stale by the time it is used.
     */
    default boolean holdsErrors() { return false; }

    /** Completes once the export has hydrated and {@code upper() > t}; fails if it is dropped first. */
    CompletableFuture<Void> readableAt(long t);

    /**
     * Pins the arrangement at {@code asOf} (read holds on every part) until closed. The
     * caller has awaited {@link #readableAt(long)}. Fails with an internal error if
     * {@code asOf} is already compacted away.
     */
    Snapshot snapshot(long asOf);

    /**
     * Holds time {@code t} on the arrangement (compaction does not pass it) until closed,
     * even before {@code t} is complete, so a reader can wait for {@code t} and still read
     * there (a checkpoint storing a materialized view's contents). Empty when {@code t} is
     * already compacted away, or the reader cannot hold (the default). Any thread.
     */
    default Optional<Hold> tryHold(long t) { return Optional.empty(); }

    /** A hold taken by {@link #tryHold}; closing is idempotent. */
    interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    /** An arrangement pinned at one time. Single reader thread; close releases the holds. */
    interface Snapshot extends AutoCloseable {
        long asOf();

        /** The least evaluation error in the export's error collection at asOf, if any. */
        Optional<EvalError> firstError();

        /** Rows whose key equals {@code key} (evaluated key values), with their multiplicities. */
        void lookup(Row key, RowVisitor visitor);

        /**
         * Every row at asOf. Returns the number of cursor positions visited (the walk's
         * fuel), checking {@code cancel} as it goes.
         */
        long walk(RowVisitor visitor, Cancellation cancel);

        /**
         * A walk of every row at asOf that can stop after a budget of cursor positions and
         * resume later, on another thread (what a replica slices and offloads). The
         * default visits everything in its first slice.
         */
        default Walk walker(RowVisitor visitor) {
            Snapshot self = this;
            return new Walk() {
                private long positions = -1;

                public boolean advance(long budget, long granularity, Cancellation cancel) {
                    if (positions < 0) positions = self.walk(visitor, cancel);
                    return true;
                }

                public long positions() { return Math.max(0, positions); }
            };
        }

        /** Every row at asOf as positive changes (what a peek dataflow imports). */
        default Changes contents(Cancellation cancel) {
            Changes out = new Changes();
            walk((row, diff) -> out.add(row, diff), cancel);
            return out;
        }

        @Override
        void close();
    }

    /** A resumable walk ({@link Snapshot#walker}). One thread at a time; hand-overs need a happens-before edge. */
    interface Walk {
        /**
         * Visits about {@code budget} more cursor positions (at most one more), calling
         * {@code cancel.check()} every {@code granularity} positions. True once every row
         * was visited.
         */
        boolean advance(long budget, long granularity, Cancellation cancel);

        /** Cursor positions visited so far. */
        long positions();
    }

    @FunctionalInterface
    interface RowVisitor {
        /** A row and its (positive) multiplicity. */
        void accept(Row row, long diff);
    }
}
