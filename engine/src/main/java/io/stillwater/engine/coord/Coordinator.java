package io.stillwater.engine.coord;

import io.stillwater.engine.EngineConfig;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewCodec;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.catalog.ViewRules;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.plan.PlanInputs;
import java.util.Set;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.table.Table;
import io.stillwater.engine.time.TimestampOracle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequences every change to the database: DDL and table writes get a timestamp from the
 * oracle, go to the write-ahead log (group-committed), and are applied to the in-memory
 * tables in timestamp order once durable. Reads pick their timestamp here.
 *
 * <p>Locks, in acquisition order:
 * <ul>
 *   <li>{@code writeLock} orders timestamp assignment with log appends, so log order is
 *       timestamp order. Read-modify-write statements (UPDATE, DELETE, INSERT ... SELECT)
 *       hold it across their read and their append, which serializes them with every
 *       other write (no lost updates, no double retractions).</li>
 *   <li>{@code applyLock} (a monitor) guards {@code pending}, applying to tables, the
 *       oracle's applied timestamp and the catalog publication. Readers take it briefly
 *       to choose a read timestamp and place read holds atomically with respect to
 *       compaction.</li>
 * </ul>
 * A write is acknowledged (its caller returns) only after it is durable AND applied, so
 * a strict serializable read issued afterwards sees it.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    private final WriteAheadLog log;
    private final TimestampOracle oracle;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Object applyLock = new Object();
    /** Appended, not yet applied, in log (= timestamp) order. Guarded by applyLock. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Map<Long, Table> tables = new ConcurrentHashMap<>();
    private volatile Catalog catalog = Catalog.empty();
    /** The replica that maintains indexes and materialized views; fed in applyRecord. */
    private final ComputeController compute;
    /** True while the log is replayed: compute is not fed then (dataflows are built after replay). */
    private boolean replaying;

    private record Pending(long time, LogRecord record, CompletableFuture<Void> durable) {}

    private Coordinator(WriteAheadLog log, TimestampOracle oracle, ComputeController compute) {
        this.log = log;
        this.oracle = oracle;
        this.compute = compute;
    }

    /** Opens the log in {@code config.dataDir()} and replays it into catalog and tables, without compute. */
    public static Coordinator open(EngineConfig config) {
        return open(config, ComputeController.NONE);
    }

    /**
     * Opens the log in {@code config.dataDir()}, replays it into catalog and tables, and
     * from then on feeds every applied write to {@code compute}.
     */
    public static Coordinator open(EngineConfig config, ComputeController compute) {
        WriteAheadLog log = WriteAheadLog.open(config.dataDir(), config.fsync());
        Coordinator c = new Coordinator(log, new TimestampOracle(), compute);
        c.recover();
        return c;
    }

    /** The replica's compute controller (reads find index and materialized view arrangements here). */
    public ComputeController compute() { return compute; }

    private void recover() {
        long[] last = {0};
        int[] records = {0};
        synchronized (applyLock) {
            replaying = true;
            // DDL records carry no timestamp: they take effect at the time of the
            // last write before them (later writes are at greater times).
            log.replay(record -> {
                records[0]++;
                long t = record instanceof LogRecord.TableWrite tw ? tw.time() : last[0];
                applyRecord(record, t);
                if (t > last[0]) last[0] = t;
            });
            oracle.observe(last[0]);
            oracle.applyWrite(last[0]);
            long upper = last[0] + 1;
            for (Table t : tables.values()) t.advanceUpper(upper);
            replaying = false;
        }
        var report = log.recoveryReport();
        if (report.clean()) {
            LOG.info("{}; {} tables", report.describe(), tables.size());
        } else {
            // A torn tail is expected after a crash; the description says what was cut.
            LOG.warn("{}; {} tables", report.describe(), tables.size());
        }
    }

    /** Applies one durable record, at {@code time}, to catalog and tables. Holds applyLock. */
    private void applyRecord(LogRecord record, long time) {
        switch (record) {
            case LogRecord.CreateTable ct -> {
                TableDef def = ct.table();
                catalog = catalog.withTable(def);
                tables.put(def.id(), new Table(def, time));
            }
            case LogRecord.DropTable dt -> {
                catalog = catalog.withoutTable(dt.tableId());
                tables.remove(dt.tableId());
            }
            case LogRecord.TableWrite tw -> {
                Map<Long, Changes> byTable = new HashMap<>();
                for (TableChange ch : tw.changes()) {
                    byTable.computeIfAbsent(ch.tableId(), k -> new Changes()).add(ch.row(), ch.diff());
                }
                byTable.keySet().retainAll(tables.keySet());
                for (var e : byTable.entrySet()) tables.get(e.getKey()).apply(tw.time(), e.getValue());
                if (!replaying) compute.inputChanges(tw.time(), byTable);
            }
            case LogRecord.CatalogEntry e when e.kind().equals(ViewCodec.KIND) ->
                    catalog = catalog.withView(ViewCodec.decode(e.name(), e.payload()));
            case LogRecord.CatalogRemoval r when r.kind().equals(ViewCodec.KIND) ->
                    catalog = catalog.withoutView(r.name());
            default -> throw new IllegalStateException("unexpected log record " + record);
        }
        // Every table is complete through this time, written or not, so a read at it
        // (the read timestamp is the last applied record's) finds every input readable.
        for (Table t : tables.values()) t.advanceUpper(time + 1);
        if (!replaying && !(record instanceof LogRecord.TableWrite)) compute.advanceTo(time + 1);
    }

    public Catalog catalog() { return catalog; }

    public Optional<Table> table(long id) { return Optional.ofNullable(tables.get(id)); }

    // ---------------------------------------------------------------- writes

    /**
     * Makes {@code changes} durable and visible at one new timestamp, atomically.
     * Returns that timestamp after the write is applied. An empty change list commits
     * nothing and returns the current read timestamp.
     */
    public long commit(List<TableChange> changes) {
        if (changes.isEmpty()) return oracle.readTimestamp();
        return submit(ts -> new LogRecord.TableWrite(ts, List.copyOf(changes)));
    }

    /**
     * Runs {@code work} while holding the write lock, after every earlier write has been
     * applied: a read inside {@code work} at {@link #readTimestamp()} sees the latest
     * state, and no other write can interleave before {@code work}'s own commit.
     */
    public <T> T serialized(Supplier<T> work) {
        writeLock.lock();
        try {
            awaitAllApplied();
            return work.get();
        } finally {
            writeLock.unlock();
        }
    }

    /** CREATE TABLE. Returns empty if the name exists and {@code ifNotExists}. */
    public Optional<TableDef> createTable(String name, List<ColumnDef> columns, boolean ifNotExists) {
        writeLock.lock();
        try {
            awaitAllApplied();
            if (catalog.table(name).isPresent()) {
                if (ifNotExists) return Optional.empty();
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            TableDef def = new TableDef(catalog.nextId(), name, columns);
            submit(ts -> new LogRecord.CreateTable(def));
            return Optional.of(def);
        } finally {
            writeLock.unlock();
        }
    }

    /** DROP TABLE of every name (RESTRICT); unknown names are 42P01 unless {@code ifExists}. */
    public List<String> dropTables(List<String> names, boolean ifExists) {
        return dropRelations(Statement.ObjectKind.TABLE, names, ifExists, false);
    }

    /** Builds a view's definition against the catalog current under the write lock, with its id. */
    public interface ViewBuilder {
        ViewDef build(Catalog catalog, long id);
    }

    /**
     * CREATE [OR REPLACE] VIEW. {@code build} plans the view's query; it runs under the
     * write lock, so no DDL can change the catalog between planning and logging. Returns
     * empty if the name exists and {@code ifNotExists}. A replacement keeps the view's id
     * and must keep its columns ({@link ViewRules#checkReplacement}).
     */
    public Optional<ViewDef> createView(String name, boolean orReplace, boolean ifNotExists, ViewBuilder build) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog current = catalog;
            Optional<ViewDef> old = current.view(name);
            if (current.table(name).isPresent() || old.isPresent()) {
                if (ifNotExists) return Optional.empty();
                if (old.isEmpty() && orReplace) throw ViewRules.wrongKind(name, Statement.ObjectKind.VIEW);
                if (!orReplace) throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            ViewDef def = build.build(current, old.map(ViewDef::id).orElse(current.nextId()));
            old.ifPresent(o -> ViewRules.checkReplacement(o, def));
            ViewRules.checkNoCycle(current, def);
            byte[] payload = ViewCodec.encode(def);
            submit(ts -> new LogRecord.CatalogEntry(ViewCodec.KIND, name, payload));
            return Optional.of(def);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * DROP TABLE / DROP VIEW of every name. Unknown names are 42P01 unless {@code
     * ifExists}; a name of the other kind is 42809. Without {@code cascade}, an object
     * that views outside the list depend on is 2BP01; with it those views are dropped
     * too. Dependents are always removed before what they read (one log record each), so
     * every prefix of the log leaves a catalog without dangling dependencies. Returns the
     * names skipped because they did not exist.
     */
    public List<String> dropRelations(Statement.ObjectKind kind, List<String> names, boolean ifExists, boolean cascade) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog current = catalog;
            List<String> targets = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String n : names) {
                boolean isTable = current.table(n).isPresent();
                boolean isView = current.view(n).isPresent();
                if (kind == Statement.ObjectKind.TABLE ? isTable : isView) {
                    if (!targets.contains(n)) targets.add(n);
                } else if (isTable || isView) {
                    throw ViewRules.wrongKind(n, kind);
                } else if (ifExists) {
                    missing.add(n);
                } else {
                    throw new SqlException(SqlState.UNDEFINED_TABLE, kind.word() + " \"" + n + "\" does not exist");
                }
            }
            List<String> order = ViewRules.dropOrder(current, targets, cascade);
            for (String n : order) {
                Optional<TableDef> t = current.table(n);
                if (t.isPresent()) {
                    long id = t.get().id();
                    submit(ts -> new LogRecord.DropTable(id));
                } else {
                    submit(ts -> new LogRecord.CatalogRemoval(ViewCodec.KIND, n));
                }
            }
            return missing;
        } finally {
            writeLock.unlock();
        }
    }

    private interface RecordAt { LogRecord at(long ts); }

    /** Assigns a timestamp, appends, waits until durable and applied. */
    private long submit(RecordAt make) {
        Pending p;
        writeLock.lock();
        try {
            long ts = oracle.writeTimestamp();
            LogRecord record = make.at(ts);
            CompletableFuture<Void> durable = log.appendAsync(record);
            p = new Pending(ts, record, durable);
            synchronized (applyLock) {
                pending.addLast(p);
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
            if (e.getCause() instanceof SqlException se) throw se;
            throw new SqlException(SqlState.IO_ERROR, "could not write to the log: " + e.getCause(), null, null, e);
        }
        synchronized (applyLock) {
            drainDurable();
            while (oracle.readTimestamp() < p.time() && pending.contains(p)) {
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

    /** Applies every durable record at the head of {@code pending}. Holds applyLock. */
    private void drainDurable() {
        boolean any = false;
        while (!pending.isEmpty() && pending.peekFirst().durable().isDone()) {
            Pending head = pending.pollFirst();
            if (head.durable().isCompletedExceptionally()) continue;
            applyRecord(head.record(), head.time());
            oracle.applyWrite(head.time());
            any = true;
        }
        if (any) applyLock.notifyAll();
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

    /**
     * Starts maintaining {@code spec} on the replica: its table inputs are pinned at the
     * latest applied time and handed to compute for hydration, ordered before every later
     * write's changes. Waits for earlier writes to apply first; holds the write lock so no
     * write can slip between the snapshot and the command. Returns the hydration time.
     */
    public long installDataflow(io.stillwater.engine.compute.DataflowSpec spec) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Set<Long> tableInputs = new java.util.HashSet<>(PlanInputs.objectIds(spec.plan()));
            tableInputs.retainAll(tables.keySet());
            synchronized (applyLock) {
                ReadContext rc = beginRead(tableInputs, -1);
                compute.createDataflow(spec, new InputSnapshot(rc.asOf(), rc::read, rc, tableInputs));
                return rc.asOf();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Stops maintaining export {@code exportId}, ordered with writes like {@link #installDataflow}. */
    public void uninstallDataflow(long exportId) {
        synchronized (applyLock) {
            compute.dropDataflow(exportId);
        }
    }

    // ---------------------------------------------------------------- reads

    /** The strict serializable read timestamp: at or after every acknowledged write. */
    public long readTimestamp() { return oracle.readTimestamp(); }

    /**
     * Chooses a read timestamp ({@code fixedTime}, or the current strict serializable
     * one when negative) and places read holds at it on {@code tableIds}, atomically
     * with respect to compaction. Close the returned {@link ReadContext} to release.
     */
    public ReadContext beginRead(Collection<Long> tableIds, long fixedTime) {
        synchronized (applyLock) {
            long asOf = fixedTime >= 0 ? fixedTime : oracle.readTimestamp();
            Map<Long, ReadHold> holds = new LinkedHashMap<>();
            Map<Long, Table> snapshotTables = new HashMap<>();
            for (long id : tableIds) {
                Table t = tables.get(id);
                if (t == null) {
                    holds.values().forEach(ReadHold::close);
                    throw new SqlException(SqlState.UNDEFINED_TABLE,
                            "relation with id " + id + " was dropped while the statement was planned");
                }
                holds.put(id, t.hold(asOf));
                snapshotTables.put(id, t);
            }
            return new ReadContext(asOf, snapshotTables, holds);
        }
    }

    /** A read in progress: its timestamp, the tables it reads and the holds that keep them readable. */
    public static final class ReadContext implements AutoCloseable {
        private final long asOf;
        private final Map<Long, Table> tables;
        private final Map<Long, ReadHold> holds;

        ReadContext(long asOf, Map<Long, Table> tables, Map<Long, ReadHold> holds) {
            this.asOf = asOf;
            this.tables = tables;
            this.holds = holds;
        }

        public long asOf() { return asOf; }

        /** The contents of table {@code id} at {@link #asOf()}. */
        public Changes read(long id, long time) {
            Table t = tables.get(id);
            if (t == null) throw new IllegalStateException("table " + id + " not part of this read");
            return t.read(time);
        }

        @Override
        public void close() { holds.values().forEach(ReadHold::close); }
    }

    /** Rows of a table at the latest time, for tests and tools. */
    public List<Row> scan(long tableId) {
        try (ReadContext rc = beginRead(List.of(tableId), -1)) {
            Changes c = rc.read(tableId, rc.asOf());
            List<Row> out = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) for (long k = 0; k < c.diff(i); k++) out.add(c.row(i));
            return out;
        }
    }

    @Override
    public void close() {
        writeLock.lock();
        try {
            awaitAllApplied();
            log.close();
            compute.close();
        } finally {
            writeLock.unlock();
        }
    }
}
