package io.stillwater.engine.session;

import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.peek.PeekInputs;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.storage.LogRecord.TableChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * One explicit transaction block (BEGIN ... COMMIT/ROLLBACK) of a session: its snapshot,
 * its buffered writes, what its commit validates, and its savepoints.
 *
 * <p><b>Isolation: serializable by optimistic validation.</b> Every read of the block
 * (SELECTs, cursors, and the reads of its UPDATE, DELETE and INSERT ... SELECT) happens at
 * one snapshot time {@code T} ({@link #reads()}, chosen by the first read), plus the
 * block's own uncommitted writes. Writes are buffered here, never visible to others before
 * COMMIT. COMMIT applies them atomically at one new timestamp, after checking, under the
 * coordinator's write lock, that no table the block read changed after {@code T}
 * ({@link #validatedTables}); if one did it fails with 40001 and nothing is written. So the
 * block behaves as if it ran entirely at its commit time. Two concurrent read-modify-write
 * blocks on one table cannot both commit (no lost updates). Tables written only by INSERT
 * ... VALUES (blind writes) are not validated: such a block never conflicts.
 *
 * <p>Invariant: {@code writes} holds, in statement order, every change of the block's
 * successful write statements since BEGIN (minus those rolled back to a savepoint);
 * {@code pendingByTable} is recomputed from it on demand.
 *
 * <p>Owned by the session thread.
 */
final class Transaction {
    /** A savepoint: its name and how many buffered changes existed when it was set. */
    private record Savepoint(String name, int writes) {}

    private final Instant start;
    /** BEGIN ISOLATION LEVEL, or null for the session's level. */
    private final String isolation;
    private boolean readOnly;
    /** The block's pinned inputs at its snapshot time, from the first read; null before. */
    private PeekInputs reads;
    private final List<TableChange> writes = new ArrayList<>();
    /** Tables read since BEGIN: their change after the snapshot fails the commit. */
    private final Set<Long> readTables = new LinkedHashSet<>();
    /** The block read a collection that is not a table (a materialized view): every table is validated. */
    private boolean readDerived;
    /** Whether a statement of the block has run since BEGIN (SET TRANSACTION ISOLATION must come first). */
    private boolean started;
    private final List<Savepoint> savepoints = new ArrayList<>();

    Transaction(Instant start, String isolation, boolean readOnly) {
        this.start = start;
        this.isolation = isolation;
        this.readOnly = readOnly;
    }

    Instant start() { return start; }

    String isolation() { return isolation; }

    boolean readOnly() { return readOnly; }

    /**
     * SET TRANSACTION READ ONLY / READ WRITE. As in PostgreSQL, READ WRITE after the block
     * has run a query is 25001.
     */
    void setReadOnly(boolean readOnly) {
        if (!readOnly && this.readOnly && started) {
            throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION,
                    "transaction read-write mode must be set before any query");
        }
        this.readOnly = readOnly;
    }

    /** Marks that a statement (a query or a write) of the block ran. */
    void started() { started = true; }

    boolean hasStarted() { return started; }

    /** The pinned inputs of the block's reads, or null before its first read. */
    PeekInputs reads() { return reads; }

    void reads(PeekInputs pinned) { this.reads = pinned; }

    /** 25006 for a write in a READ ONLY block. */
    void checkWritable(String verb) {
        if (readOnly) {
            throw new SqlException(SqlState.READ_ONLY_SQL_TRANSACTION,
                    "cannot execute " + verb + " in a read-only transaction");
        }
    }

    /** Notes the collections a read of the block used, for the commit's validation. */
    void noteRead(Collection<Long> objectIds, LongPredicate isTable) {
        for (long id : objectIds) {
            if (SystemRelations.isSystem(id)) continue;
            if (isTable.test(id)) readTables.add(id);
            else readDerived = true;
        }
    }

    void buffer(List<TableChange> changes) { writes.addAll(changes); }

    boolean hasWrites() { return !writes.isEmpty(); }

    List<TableChange> writes() { return List.copyOf(writes); }

    /** The buffered changes by table, as reads of the block add them to the tables' contents. */
    Map<Long, Changes> pendingByTable() {
        Map<Long, Changes> out = new HashMap<>();
        for (TableChange ch : writes) out.computeIfAbsent(ch.tableId(), k -> new Changes()).add(ch.row(), ch.diff());
        return out;
    }

    /**
     * The tables whose change after the snapshot fails the commit: those read, or every
     * table in {@code allTables} when the block read a derived collection (its tables are
     * not tracked one by one).
     */
    Set<Long> validatedTables(Collection<Long> allTables) {
        Set<Long> out = new LinkedHashSet<>(readTables);
        if (readDerived) out.addAll(allTables);
        return out;
    }

    // ---------------------------------------------------------------- savepoints

    /** Runs a SAVEPOINT, ROLLBACK TO SAVEPOINT or RELEASE SAVEPOINT statement on this block. */
    void apply(Statement.Savepoint sp) {
        switch (sp.action()) {
            case DEFINE -> savepoint(sp.name());
            case ROLLBACK_TO -> rollbackTo(sp.name());
            case RELEASE -> release(sp.name());
        }
    }

    /** PostgreSQL's 25P01 for a savepoint statement outside a transaction block. */
    static SqlException outsideBlock(Statement.Savepoint sp) {
        String what = switch (sp.action()) {
            case DEFINE -> "SAVEPOINT";
            case ROLLBACK_TO -> "ROLLBACK TO SAVEPOINT";
            case RELEASE -> "RELEASE SAVEPOINT";
        };
        return new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION, what + " can only be used in transaction blocks");
    }

    /** SAVEPOINT name: a later one of the same name hides an earlier one, as in PostgreSQL. */
    void savepoint(String name) { savepoints.add(new Savepoint(name, writes.size())); }

    /**
     * ROLLBACK TO name: the writes since the savepoint are discarded; it and earlier ones
     * stay, later ones go. Reads are not undone (they stay validated at commit).
     */
    void rollbackTo(String name) {
        int at = find(name);
        int keep = savepoints.get(at).writes();
        writes.subList(keep, writes.size()).clear();
        savepoints.subList(at + 1, savepoints.size()).clear();
    }

    /** RELEASE name: forgets it and every later savepoint; the writes stay. */
    void release(String name) {
        int at = find(name);
        savepoints.subList(at, savepoints.size()).clear();
    }

    private int find(String name) {
        for (int i = savepoints.size() - 1; i >= 0; i--) {
            if (savepoints.get(i).name().equals(name)) return i;
        }
        throw new SqlException(SqlState.INVALID_SAVEPOINT_SPECIFICATION, "savepoint \"" + name + "\" does not exist");
    }

    /** Closes the pinned inputs (idempotent). */
    void close() {
        PeekInputs r = reads;
        reads = null;
        if (r != null) r.close();
    }

    /** A PostgreSQL Boolean setting's value as a boolean (already validated). */
    static boolean isOn(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return v.equals("1") || v.startsWith("t") || v.startsWith("y") || v.equals("on");
    }
}
