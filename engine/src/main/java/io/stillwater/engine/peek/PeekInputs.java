package io.stillwater.engine.peek;

import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.coord.ReadContext;
import io.stillwater.engine.coord.ReadTimestamps;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.ChunkSource;
import io.stillwater.engine.dataflow.SourceRows;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pinned inputs of a read at one timestamp {@link #asOf()}: read holds on the tables
 * it reads from their own snapshots, and open snapshots of the compute exports it reads.
 * Everything is released by {@link #close()} (idempotent), which callers reach through
 * try-with-resources, also on errors, cancellation and timeouts.
 *
 * <p>A single statement acquires one with {@link #acquire}; a read-only transaction
 * acquires one at its first read ({@link #acquireForTransaction}) and keeps it, extending
 * it with {@link #extendFor} as later statements read more exports, until COMMIT.
 *
 * <p>Owned by one session thread (export snapshots are single-reader).
 */
public final class PeekInputs implements AutoCloseable {
    /** How many times a read re-picks its timestamp when an export was compacted past it meanwhile. */
    private static final int ATTEMPTS = 3;
    /** How long a wait blocks between cancellation checks. */
    private static final long POLL_MS = 10;

    private final long asOf;
    /** Read holds on tables, by table id (one context may cover several tables). */
    private final Map<Long, ReadContext> tables = new HashMap<>();
    private final List<ReadContext> contexts = new ArrayList<>();
    /** Open export snapshots at asOf, by export id. */
    private final Map<Long, CollectionReader.Snapshot> exports = new LinkedHashMap<>();
    /**
     * A read-write transaction's own uncommitted changes, by table: {@link #table} adds
     * them to the table's contents at asOf, so the transaction reads its own writes.
     */
    private Map<Long, Changes> pendingWrites = Map.of();
    private boolean closed;

    private PeekInputs(long asOf) { this.asOf = asOf; }

    /** An empty set of inputs at {@code asOf}, for tests and tools that pin their own. */
    public static PeekInputs at(long asOf) { return new PeekInputs(asOf); }

    public long asOf() { return asOf; }

    /**
     * Picks the read time of {@code plan} under {@code isolation}, holds its tables there,
     * waits (cancellably) until every export it reads is readable there and opens their
     * snapshots.
     */
    public static PeekInputs acquire(ReadTimestamps reads, PeekPlan plan, Isolation isolation, Cancellation cancel) {
        return acquire(reads, plan, isolation, cancel, false);
    }

    /**
     * Like {@link #acquire(ReadTimestamps, PeekPlan, Isolation, Cancellation)}; when {@code
     * immediate}, never waits: if an export is not readable at the chosen time yet, the
     * inputs are released and {@link NotImmediate} is thrown (the caller runs the read where
     * it may wait).
     */
    public static PeekInputs acquire(ReadTimestamps reads, PeekPlan plan, Isolation isolation, Cancellation cancel,
                                     boolean immediate) {
        Collection<CollectionReader> readers = plan.exports().values();
        boolean exportsOnly = plan.tables().isEmpty() && !readers.isEmpty();
        for (int attempt = 1; ; attempt++) {
            boolean lastAttempt = attempt == ATTEMPTS;
            PeekInputs in = null;
            try {
                if (isolation == Isolation.SERIALIZABLE && exportsOnly && !lastAttempt) {
                    // First the freshest time all are complete; if one export compacted
                    // past it meanwhile, the freshest time any is complete (the others
                    // catch up to it); last, the strict serializable time.
                    in = new PeekInputs(attempt == 1 ? freshestComplete(readers, cancel, immediate)
                            : freshestAny(readers, cancel, immediate));
                } else {
                    ReadContext rc = reads.beginRead(plan.tables(), -1);
                    in = new PeekInputs(rc.asOf());
                    in.addTables(rc, plan.tables());
                }
                for (CollectionReader r : readers) in.openExport(r, cancel, immediate);
                return in;
            } catch (NotImmediate e) {
                if (in != null) in.close();
                throw e;
            } catch (SqlException e) {
                if (in != null) in.close();
                // A long wait (e.g. for a hydration) can outlast the export's compaction
                // lag, so it compacted past the chosen time: any later time is as good
                // (still at or after every acknowledged write), so choose again.
                if (lastAttempt || !compactedPast(e)) throw e;
            } catch (RuntimeException e) {
                // An export compacted past the chosen time between our wait and our
                // snapshot (the contract cannot hold it earlier): choose a newer time.
                if (in != null) in.close();
                if (lastAttempt) throw e;
            }
        }
    }

    /**
     * The inputs of a read-only transaction, chosen at its first read {@code plan}: every
     * table in {@code allTables} is held at the transaction's time (so any later statement
     * can read it), and the exports of {@code plan} are opened. Under serializable
     * isolation a first read of exports only takes their freshest complete time; tables
     * already compacted past it are left out (a later read of one fails with 25000).
     */
    public static PeekInputs acquireForTransaction(ReadTimestamps reads, PeekPlan plan, Isolation isolation,
                                                   Collection<Long> allTables, Cancellation cancel) {
        Collection<CollectionReader> readers = plan.exports().values();
        PeekInputs in;
        if (isolation == Isolation.SERIALIZABLE && plan.tables().isEmpty() && !readers.isEmpty()) {
            in = new PeekInputs(freshestComplete(readers, cancel));
            for (long id : allTables) {
                try {
                    in.addTables(reads.beginRead(List.of(id), in.asOf), List.of(id));
                } catch (SqlException | IllegalStateException e) {
                    // dropped meanwhile, or compacted past asOf: not readable in this transaction
                }
            }
        } else {
            ReadContext rc = reads.beginRead(allTables, -1);
            in = new PeekInputs(rc.asOf());
            in.addTables(rc, allTables);
        }
        try {
            in.extendFor(plan, cancel);
            return in;
        } catch (RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /**
     * Makes this (transaction's) inputs cover {@code plan}: opens snapshots of exports not
     * yet open, at {@link #asOf()}, waiting until they are readable there.
     *
     * @throws SqlException 25000 when a table or export cannot be read at this time
     */
    public void extendFor(PeekPlan plan, Cancellation cancel) {
        for (long id : plan.tables()) {
            if (!tables.containsKey(id)) {
                throw new SqlException(SqlState.INVALID_TRANSACTION_STATE,
                        "table with id u" + id + " cannot be read in this transaction: it was created or compacted"
                                + " after the transaction's first read", null,
                        "COMMIT, then read it in a new transaction.");
            }
        }
        for (CollectionReader r : plan.exports().values()) {
            if (exports.containsKey(r.exportId())) continue;
            try {
                openExport(r, cancel);
            } catch (SqlException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new SqlException(SqlState.INVALID_TRANSACTION_STATE,
                        "export u" + r.exportId() + " cannot be read at this transaction's timestamp " + asOf
                                + ": it was compacted past it", null,
                        "COMMIT, then read it in a new transaction.", e);
            }
        }
    }

    /**
     * Opens snapshots of {@code readers} that are readable at {@link #asOf()} already,
     * without waiting; the others are skipped. A transaction pins what it may read later.
     */
    public void openReadableNow(Collection<CollectionReader> readers) {
        for (CollectionReader r : readers) {
            if (exports.containsKey(r.exportId()) || !r.readableAt(asOf).isDone()) continue;
            try {
                exports.put(r.exportId(), r.snapshot(asOf));
            } catch (RuntimeException e) {
                // compacted past asOf, or dropped: simply not pinned
            }
        }
    }

    /** The open snapshot of export {@code exportId}. */
    public CollectionReader.Snapshot export(long exportId) {
        CollectionReader.Snapshot s = exports.get(exportId);
        if (s == null) throw new IllegalStateException("export " + exportId + " is not part of this read");
        return s;
    }

    /** Whether the snapshot of {@code exportId} is open. */
    public boolean hasExport(long exportId) { return exports.containsKey(exportId); }

    /**
     * The contents of table {@code tableId} at {@link #asOf()}, plus the {@linkplain
     * #readOwnWrites pending writes} to it.
     */
    public Changes table(long tableId) {
        ReadContext rc = tables.get(tableId);
        if (rc == null) throw new IllegalStateException("table " + tableId + " is not part of this read");
        Changes committed = rc.read(tableId, asOf);
        Changes pending = pendingWrites.get(tableId);
        if (pending == null || pending.isEmpty()) return committed;
        return new Changes(committed.size() + pending.size()).addAll(committed).addAll(pending).consolidate();
    }

    /**
     * Table {@code tableId} at {@link #asOf()} for a pipelined read: its snapshot walked a
     * chunk at a time, one walk per consumer, never copied whole (rows stored packed are
     * materialized per chunk, so they die young). With pending writes to the table, its
     * {@link #table} contents.
     */
    public SourceRows tableRows(long tableId) {
        ReadContext rc = tables.get(tableId);
        if (rc == null) throw new IllegalStateException("table " + tableId + " is not part of this read");
        Changes pending = pendingWrites.get(tableId);
        TraceSnapshot snap = pending == null || pending.isEmpty() ? rc.snapshot(tableId, asOf) : null;
        if (snap == null) return SourceRows.of(table(tableId));
        long t = asOf;
        return new SourceRows() {
            @Override
            public ChunkSource cursor(int chunkRows, Cancellation cancel) { return new SnapshotChunks(snap.walk(t), chunkRows, cancel); }

            @Override
            public long heapBytes() { return 0; }
        };
    }

    /** A table snapshot's rows, a chunk of at most {@code chunkRows} per pull. */
    private static final class SnapshotChunks implements ChunkSource {
        private final TraceSnapshot.Walk walk;
        private final int chunkRows;
        private final Cancellation cancel;
        private boolean done;

        SnapshotChunks(TraceSnapshot.Walk walk, int chunkRows, Cancellation cancel) {
            this.walk = walk;
            this.chunkRows = Math.max(1, chunkRows);
            this.cancel = cancel;
        }

        @Override
        public Changes next() {
            if (done) return null;
            cancel.check();
            Changes out = new Changes(chunkRows);
            done = walk.advance(chunkRows, (key, val, diff) -> out.add(key, diff));
            return out;
        }

        @Override
        public void close() { done = true; }
    }

    /**
     * From now on, table reads include {@code pending} (a transaction's uncommitted
     * changes by table id; not copied, so the caller hands over a map it no longer
     * changes). Only reads that take tables from their own snapshots see them.
     */
    public void readOwnWrites(Map<Long, Changes> pending) { this.pendingWrites = pending; }

    /** Whether table {@code tableId} is held at {@link #asOf()}. */
    public boolean hasTable(long tableId) { return tables.containsKey(tableId); }

    /** Adds a table read context (taken at {@link #asOf()}) covering {@code ids}; closed with this. */
    public void addTables(ReadContext rc, Collection<Long> ids) {
        if (rc.asOf() != asOf) {
            rc.close();
            throw new IllegalArgumentException("read context at " + rc.asOf() + ", inputs at " + asOf);
        }
        contexts.add(rc);
        for (long id : ids) tables.put(id, rc);
    }

    /** Adds an already open export snapshot at {@link #asOf()}; closed with this. */
    public void addExport(long exportId, CollectionReader.Snapshot snapshot) {
        exports.put(exportId, snapshot);
    }

    /** Whether {@code e} is a snapshot refused because the arrangement compacted past its time. */
    private static boolean compactedPast(SqlException e) {
        return e.state() == SqlState.INTERNAL_ERROR && e.getCause() instanceof IllegalStateException;
    }

    private void openExport(CollectionReader r, Cancellation cancel) {
        openExport(r, cancel, false);
    }

    private void openExport(CollectionReader r, Cancellation cancel, boolean immediate) {
        await(r.readableAt(asOf), r, cancel, immediate);
        exports.put(r.exportId(), r.snapshot(asOf));
    }

    /**
     * The freshest time at which every reader is complete: the least {@code upper - 1},
     * after waiting for each to hydrate.
     */
    static long freshestComplete(Collection<CollectionReader> readers, Cancellation cancel) {
        return freshestComplete(readers, cancel, false);
    }

    private static long freshestComplete(Collection<CollectionReader> readers, Cancellation cancel, boolean immediate) {
        long t = Long.MAX_VALUE;
        for (CollectionReader r : readers) {
            await(r.readableAt(Long.MIN_VALUE), r, cancel, immediate);
            t = Math.min(t, r.upper() - 1);
        }
        return t;
    }

    /** The greatest {@code upper - 1} of {@code readers}, after waiting for each to hydrate. */
    private static long freshestAny(Collection<CollectionReader> readers, Cancellation cancel, boolean immediate) {
        long t = Long.MIN_VALUE;
        for (CollectionReader r : readers) {
            await(r.readableAt(Long.MIN_VALUE), r, cancel, immediate);
            t = Math.max(t, r.upper() - 1);
        }
        return t;
    }

    /** Waits for {@code f}, checking {@code cancel} every few milliseconds. */
    static void await(CompletableFuture<Void> f, CollectionReader r, Cancellation cancel) {
        await(f, r, cancel, false);
    }

    /** Like {@link #await(CompletableFuture, CollectionReader, Cancellation)}; {@code immediate}: {@link NotImmediate} rather than wait. */
    private static void await(CompletableFuture<Void> f, CollectionReader r, Cancellation cancel, boolean immediate) {
        if (immediate && !f.isDone()) throw new NotImmediate("export u" + r.exportId() + " is not readable yet");
        while (true) {
            cancel.check();
            try {
                f.get(POLL_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // check cancellation and wait again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to interrupt");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof SqlException se) throw se;
                throw new SqlException(SqlState.UNDEFINED_OBJECT,
                        "index or materialized view u" + r.exportId() + " was dropped while the read waited for it",
                        null, null, e.getCause());
            }
        }
    }

    /** Releases every hold and snapshot. Idempotent; keeps going past failures. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        RuntimeException first = null;
        for (CollectionReader.Snapshot s : exports.values()) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        for (ReadContext rc : contexts) {
            try {
                rc.close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        exports.clear();
        tables.clear();
        contexts.clear();
        if (first != null) throw first;
    }

    @Override
    public String toString() {
        return "PeekInputs[asOf=" + asOf + ", tables=" + tables.keySet() + ", exports=" + exports.keySet() + "]";
    }
}
