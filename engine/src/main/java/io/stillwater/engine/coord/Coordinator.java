package io.stillwater.engine.coord;

import io.stillwater.engine.EngineConfig;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.IndexCodec;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewCodec;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewCodec;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.catalog.ViewRules;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameterCodec;
import io.stillwater.engine.params.SystemParameters;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    /** Plans index and materialized view dataflows; built on first use (Calcite set-up is not free). */
    private volatile DataflowPlanner dataflowPlanner;
    /** System.nanoTime() of the last applied write or idle tick. Written under applyLock. */
    private volatile long lastAdvanceNanos = System.nanoTime();
    /** Advances time when no write has been applied for {@link #IDLE_TICK_MS}; see {@link #idleTick()}. */
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stillwater-idle-tick");
        t.setDaemon(true);
        return t;
    });

    /** How long without an applied write before the idle tick advances time, in ms. */
    public static final long IDLE_TICK_MS = 100;
    /**
     * System parameters: this process's startup defaults plus the ALTER SYSTEM overrides
     * from the log. Set in {@link #open} before replay, never reassigned; changed only in
     * applyRecord (under applyLock).
     */
    private SystemParameters systemParameters = new SystemParameters();

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
        try {
            c.systemParameters = SystemParameters.withStartupDefaults(config.systemParameterDefaults());
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
        c.recover();
        if (compute != ComputeController.NONE) c.installAllDataflows();
        c.ticker.scheduleWithFixedDelay(c::idleTickSafely, IDLE_TICK_MS / 2, IDLE_TICK_MS / 2, TimeUnit.MILLISECONDS);
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
            case LogRecord.CatalogEntry e when e.kind().equals(IndexCodec.KIND) ->
                    catalog = catalog.withIndex(IndexCodec.decode(e.name(), e.payload()));
            case LogRecord.CatalogRemoval r when r.kind().equals(IndexCodec.KIND) ->
                    catalog = catalog.withoutIndex(r.name());
            case LogRecord.CatalogEntry e when e.kind().equals(MaterializedViewCodec.KIND) ->
                    catalog = catalog.withMaterializedView(MaterializedViewCodec.decode(e.name(), e.payload()));
            case LogRecord.CatalogRemoval r when r.kind().equals(MaterializedViewCodec.KIND) ->
                    catalog = catalog.withoutMaterializedView(r.name());
            case LogRecord.CatalogEntry e when e.kind().equals(SystemParameterCodec.KIND) ->
                    applySystemParameter(e.name(), SystemParameterCodec.decode(e.name(), e.payload()));
            case LogRecord.CatalogRemoval r when r.kind().equals(SystemParameterCodec.KIND) ->
                    applySystemParameter(r.name(), null);
            default -> throw new IllegalStateException("unexpected log record " + record);
        }
        // Every table is complete through this time, written or not, so a read at it
        // (the read timestamp is the last applied record's) finds every input readable.
        for (Table t : tables.values()) t.advanceUpper(time + 1);
        if (!replaying && !(record instanceof LogRecord.TableWrite)) compute.advanceTo(time + 1);
    }

    public Catalog catalog() { return catalog; }

    /** The live system parameters (thread-safe reads; see {@link SystemParameters}). */
    public SystemParameters systemParameters() { return systemParameters; }

    /**
     * Applies a logged ALTER SYSTEM change ({@code text} null: RESET). A record this
     * version cannot apply (a parameter since removed, a value no longer valid) is
     * skipped with a warning rather than failing recovery: the parameter keeps its default.
     */
    private void applySystemParameter(String name, String text) {
        try {
            if (text == null) systemParameters.applyReset(name);
            else systemParameters.applyOverride(name, text);
        } catch (SqlException e) {
            LOG.warn("ignoring logged ALTER SYSTEM of {} = {}: {}", name, text, e.getMessage());
        }
    }

    /**
     * ALTER SYSTEM SET {@code name} = {@code value}: validates (42704 unknown name, 22023
     * invalid value), makes the override durable, then applies it. The caller checks the
     * role. Returns the canonical text stored.
     */
    public String alterSystemSet(String name, String value) {
        Param<?> p = Params.require(name);
        String text = p.format(p.parse(value));
        writeLock.lock();
        try {
            awaitAllApplied();
            byte[] payload = SystemParameterCodec.encode(text);
            submit(ts -> new LogRecord.CatalogEntry(SystemParameterCodec.KIND, p.name(), payload));
            return text;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * ALTER SYSTEM RESET {@code name} (42704 if unknown), or every override when {@code
     * name} is {@code all}: removes the override durably (one log record per parameter;
     * a parameter without an override costs nothing).
     */
    public void alterSystemReset(String name) {
        String only = name.equalsIgnoreCase("all") ? null : Params.require(name).name();
        writeLock.lock();
        try {
            awaitAllApplied();
            List<String> names = only != null ? List.of(only)
                    : List.copyOf(systemParameters.snapshot().overrides().keySet());
            for (String n : names) {
                if (systemParameters.snapshot().overrides().containsKey(n)) {
                    submit(ts -> new LogRecord.CatalogRemoval(SystemParameterCodec.KIND, n));
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

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
            if (catalog.relationExists(name)) {
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
            Optional<Statement.ObjectKind> existing = current.kindOf(name);
            if (existing.isPresent()) {
                if (ifNotExists) return Optional.empty();
                if (old.isEmpty() && orReplace) throw ViewRules.wrongKind(name, Statement.ObjectKind.VIEW, existing.get());
                if (!orReplace) throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            if (old.isPresent()) ViewRules.checkReplaceable(current, name);
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

    /** DROP TABLE / DROP VIEW; see {@link #dropObjects}. */
    public List<String> dropRelations(Statement.ObjectKind kind, List<String> names, boolean ifExists, boolean cascade) {
        return dropObjects(kind, names, ifExists, cascade);
    }

    /**
     * DROP TABLE / VIEW / MATERIALIZED VIEW / INDEX of every name. Unknown names are
     * 42P01 (42704 for indexes, as in PostgreSQL) unless {@code ifExists}; a name of
     * another kind is 42809. Without {@code cascade}, an object that others outside the
     * list depend on (views and materialized views reading it, indexes on it) is 2BP01;
     * with it those are dropped too. Dependents are always removed before what they
     * read (one log record each, each followed by dropping its dataflow), so every
     * prefix of the log leaves a catalog without dangling dependencies. Returns the
     * names skipped because they did not exist.
     */
    public List<String> dropObjects(Statement.ObjectKind kind, List<String> names, boolean ifExists, boolean cascade) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog current = catalog;
            List<String> targets = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String n : names) {
                Optional<Statement.ObjectKind> actual = current.kindOf(n);
                if (actual.isPresent() && actual.get() == kind) {
                    if (!targets.contains(n)) targets.add(n);
                } else if (actual.isPresent()) {
                    throw ViewRules.wrongKind(n, kind, actual.get());
                } else if (ifExists) {
                    missing.add(n);
                } else {
                    throw new SqlException(kind == Statement.ObjectKind.INDEX ? SqlState.UNDEFINED_OBJECT : SqlState.UNDEFINED_TABLE,
                            kind.word() + " \"" + n + "\" does not exist");
                }
            }
            List<String> order = ViewRules.dropOrder(current, targets, cascade);
            for (String n : order) {
                long id = current.idOf(n);
                switch (current.kindOf(n).orElseThrow()) {
                    case TABLE -> submit(ts -> new LogRecord.DropTable(id));
                    case VIEW -> submit(ts -> new LogRecord.CatalogRemoval(ViewCodec.KIND, n));
                    case MATERIALIZED_VIEW -> {
                        submit(ts -> new LogRecord.CatalogRemoval(MaterializedViewCodec.KIND, n));
                        uninstallDataflow(id);
                    }
                    case INDEX -> {
                        submit(ts -> new LogRecord.CatalogRemoval(IndexCodec.KIND, n));
                        uninstallDataflow(id);
                    }
                }
            }
            return missing;
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- indexes and materialized views

    /**
     * The cluster an object goes to: {@code default} when none is named. Until cluster
     * DDL exists (issue 5) every other name is 42704, Materialize's wording.
     */
    public static String resolveCluster(String cluster) {
        if (cluster == null || cluster.equals(SystemRelations.DEFAULT_CLUSTER)) return SystemRelations.DEFAULT_CLUSTER;
        throw new SqlException(SqlState.UNDEFINED_OBJECT, "unknown cluster '" + cluster + "'");
    }

    private DataflowPlanner dataflowPlanner() {
        DataflowPlanner p = dataflowPlanner;
        if (p == null) dataflowPlanner = p = new DataflowPlanner();
        return p;
    }

    /**
     * CREATE [DEFAULT] INDEX. Under the write lock: resolves the object, plans the key
     * and the dataflow (a planning error creates nothing), installs the dataflow, then
     * makes the catalog entry durable. Installing first means no reader ever plans
     * against an index whose arrangement compute does not know yet; if the log append
     * fails the dataflow is dropped again. Returns empty if the name exists and
     * {@code IF NOT EXISTS} was given.
     */
    public Optional<IndexDef> createIndex(Statement.CreateIndex s) {
        String cluster = resolveCluster(s.cluster());
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog current = catalog;
            if (s.name() != null && current.relationExists(s.name())) {
                if (s.ifNotExists()) return Optional.empty();
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + s.name() + "\" already exists");
            }
            String on = s.onName();
            Statement.ObjectKind onKind = current.kindOf(on).orElseThrow(
                    () -> new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + on + "\" does not exist"));
            if (onKind == Statement.ObjectKind.INDEX) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "cannot create index on relation \"" + on + "\"",
                        "This operation is not supported for indexes.", null);
            }
            DataflowPlanner planner = dataflowPlanner();
            List<String> keySql = s.keySql();
            if (s.isDefault() || keySql.isEmpty()) {
                keySql = DataflowPlanner.columnsOf(current, on).columnNames().stream().map(IndexDef::quote).toList();
            }
            List<Expr> key = planner.keyExprs(current, on, keySql);
            String name = s.name() != null ? s.name()
                    : generatedIndexName(current, on, s.isDefault() || s.keySql().isEmpty(), key,
                            DataflowPlanner.columnsOf(current, on).columnNames());
            IndexDef def = new IndexDef(current.nextId(), name, current.idOf(on), on, keySql, cluster);
            DataflowSpec spec = planner.index(current, def);
            byte[] payload = IndexCodec.encode(def);
            installThenLog(spec, () -> submit(ts -> new LogRecord.CatalogEntry(IndexCodec.KIND, name, payload)));
            return Optional.of(def);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Materialize's generated index names: {@code <obj>_primary_idx} for a default index,
     * else {@code <obj>_<part>_..._idx} where a part is the key column's name or
     * {@code expr}; a numeric suffix makes it unique.
     */
    static String generatedIndexName(Catalog catalog, String on, boolean isDefault, List<Expr> key, List<String> columns) {
        StringBuilder b = new StringBuilder(on);
        if (isDefault) {
            b.append("_primary");
        } else {
            for (Expr e : key) b.append('_').append(e instanceof Expr.Column c ? columns.get(c.index()) : "expr");
        }
        String base = b.append("_idx").toString();
        String name = base;
        for (int i = 1; catalog.relationExists(name); i++) name = base + i;
        return name;
    }

    /**
     * CREATE [OR REPLACE] MATERIALIZED VIEW. Planned under the write lock (errors as for
     * the SELECT; a planning error creates nothing), installed, then logged, as for
     * {@link #createIndex}. A replacement gets a new id and is refused (2BP01) while
     * anything depends on the old one; the old dataflow is dropped once the new entry
     * is durable. Returns empty if the name exists and {@code IF NOT EXISTS} was given.
     */
    public Optional<MaterializedViewDef> createMaterializedView(Statement.CreateMaterializedView s) {
        String cluster = resolveCluster(s.cluster());
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog current = catalog;
            String name = s.name();
            Optional<Statement.ObjectKind> existing = current.kindOf(name);
            Optional<MaterializedViewDef> old = current.materializedView(name);
            if (existing.isPresent()) {
                if (s.ifNotExists()) return Optional.empty();
                if (!s.orReplace()) throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
                if (old.isEmpty()) throw ViewRules.wrongKind(name, Statement.ObjectKind.MATERIALIZED_VIEW, existing.get());
                List<String> dependents = current.dependentNames(name);
                if (!dependents.isEmpty()) {
                    // Even its own indexes: they were built on the old definition's id.
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot replace materialized view " + name + " because other objects depend on it",
                            "depended upon by " + String.join(", ", dependents),
                            "Drop them first, or DROP MATERIALIZED VIEW " + name + " CASCADE and create it again.");
                }
            }
            DataflowPlanner planner = dataflowPlanner();
            MaterializedViewDef def = planner.defineMaterializedView(current, current.nextId(), s, cluster);
            DataflowSpec spec = planner.materializedView(current, def);
            byte[] payload = MaterializedViewCodec.encode(def);
            installThenLog(spec, () -> submit(ts -> new LogRecord.CatalogEntry(MaterializedViewCodec.KIND, name, payload)));
            old.ifPresent(o -> uninstallDataflow(o.id()));
            return Optional.of(def);
        } finally {
            writeLock.unlock();
        }
    }

    /** Installs {@code spec}'s dataflow, then runs {@code log}; drops the dataflow again if logging fails. */
    private void installThenLog(DataflowSpec spec, Runnable log) {
        try {
            installDataflow(spec);
        } catch (UnsupportedOperationException e) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "cannot maintain " + spec.name() + ": " + e.getMessage(), null, null, e);
        }
        try {
            log.run();
        } catch (RuntimeException e) {
            uninstallDataflow(spec.exportId());
            throw e;
        }
    }

    /**
     * After replay: installs every index and materialized view dataflow in id order, so
     * each one's inputs (tables, and the collections of older exports it imports) exist
     * before it. Each is planned against the catalog as it was when it was created as
     * far as indexes go ({@link Catalog#withIndexesBelow}), so it imports only older
     * arrangements. An object that no longer plans is logged and left without a dataflow.
     */
    private void installAllDataflows() {
        Catalog all = catalog;
        List<Object> items = new ArrayList<>();
        items.addAll(all.indexes());
        items.addAll(all.materializedViews());
        items.sort(java.util.Comparator.comparingLong(o -> o instanceof IndexDef i ? i.id() : ((MaterializedViewDef) o).id()));
        for (Object o : items) {
            try {
                DataflowSpec spec = switch (o) {
                    case IndexDef i -> dataflowPlanner().index(all.withIndexesBelow(i.id()), i);
                    case MaterializedViewDef m -> dataflowPlanner().materializedView(all.withIndexesBelow(m.id()), m);
                    default -> throw new IllegalStateException();
                };
                installDataflow(spec);
            } catch (RuntimeException e) {
                LOG.error("could not rebuild the dataflow of {} after restart", o, e);
            }
        }
    }

    // ---------------------------------------------------------------- idle tick

    private void idleTickSafely() {
        try {
            idleTick();
        } catch (RuntimeException e) {
            LOG.warn("idle tick failed", e);
        }
    }

    /**
     * When no write has been applied for {@link #IDLE_TICK_MS}, advances time as an
     * empty write would, without a log record: a new timestamp from the oracle, every
     * table's upper past it, compute told so, and the read timestamp moved to it. So
     * freshness lag stays small and serializable reads see recent data without writes.
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
        for (Table t : tables.values()) t.advanceUpper(ts + 1);
        oracle.applyWrite(ts);
        compute.advanceTo(ts + 1);
        lastAdvanceNanos = System.nanoTime();
        applyLock.notifyAll();
    }

    /**
     * Advances time now as an idle tick does, whatever the time since the last write,
     * after every pending write is applied. Returns the new read timestamp.
     */
    public long advanceTime() {
        writeLock.lock();
        try {
            awaitAllApplied();
            synchronized (applyLock) {
                advanceIdle();
                return oracle.readTimestamp();
            }
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
        if (any) {
            lastAdvanceNanos = System.nanoTime();
            applyLock.notifyAll();
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
                if (SystemRelations.isSystem(id)) continue; // computed when read, see ReadContext.read
                Table t = tables.get(id);
                if (t == null) {
                    holds.values().forEach(ReadHold::close);
                    throw new SqlException(SqlState.UNDEFINED_TABLE,
                            "relation with id " + id + " was dropped while the statement was planned");
                }
                holds.put(id, t.hold(asOf));
                snapshotTables.put(id, t);
            }
            return new ReadContext(this, asOf, snapshotTables, holds);
        }
    }

    /** A read in progress: its timestamp, the tables it reads and the holds that keep them readable. */
    public static final class ReadContext implements AutoCloseable {
        private final Coordinator coordinator;
        private final long asOf;
        private final Map<Long, Table> tables;
        private final Map<Long, ReadHold> holds;

        ReadContext(Coordinator coordinator, long asOf, Map<Long, Table> tables, Map<Long, ReadHold> holds) {
            this.coordinator = coordinator;
            this.asOf = asOf;
            this.tables = tables;
            this.holds = holds;
        }

        public long asOf() { return asOf; }

        /** The contents of table {@code id} at {@link #asOf()}. */
        public Changes read(long id, long time) {
            // Built-in relations are always complete: their rows are computed now.
            if (SystemRelations.isSystem(id)) return SystemRelations.contents(id, coordinator.catalog(), coordinator);
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
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
