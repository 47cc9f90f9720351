package io.stillwater.engine.coord;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterCodec;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ClusterSize;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.compute.ReplicaSpec;
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
import io.stillwater.engine.error.FaultPoints;
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
 *
 * <p><b>Write backpressure.</b> Before a table write takes the write lock it is admitted
 * by {@link WriteAdmission}: while some replica's maintenance backlog is older than
 * {@code max_maintenance_lag}, writers wait there (bounded by their statement timeout and
 * cancellation), so acknowledged writes cannot outrun maintenance and fill the heap.
 *
 * <p><b>Applying is all or nothing per record.</b> A durable record is first
 * <em>prepared</em> (new catalog values, sorted table batches: everything that allocates
 * or can fail) without changing anything, then <em>published</em> (installed, handed to
 * the replicas, the read timestamp advanced). It leaves {@code pending} only once
 * published. A failed preparation leaves tables, oracle and replicas untouched and is
 * retried once at once (a transient failure, such as an allocation that failed while
 * another query held the heap, then costs nothing: the write is acknowledged normally).
 * If it fails again, or publishing fails half-way, memory no longer matches the log: the
 * coordinator <em>stops</em> (every later write and DDL fails with XX000 {@code could not
 * apply a committed write; restart the server}, reads keep the last consistent state) and
 * tells the {@link #onStopped} handler, with which {@code serve} exits so that a
 * supervisor restarts it and recovery replays the log.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    private final WriteAheadLog log;
    private final TimestampOracle oracle;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Object applyLock = new Object();
    /** Appended, not yet applied, in log (= timestamp) order. Guarded by applyLock. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /**
     * Non-null once a committed record could not be applied: the coordinator accepts no
     * more writes (see the class comment). Written under applyLock, read anywhere.
     */
    private volatile SqlException stopped;
    /** Told (once, on its own thread) when the coordinator stops; see {@link #onStopped}. */
    private volatile java.util.function.Consumer<SqlException> stoppedHandler = e -> {};
    private final Map<Long, Table> tables = new ConcurrentHashMap<>();
    private volatile Catalog catalog = Catalog.empty();
    /** Creates a replica's compute when a replica is created (at DDL, and for every replica at start). */
    private final ReplicaProvisioner provisioner;
    /**
     * The running replicas of every cluster; every applied write is broadcast to all of
     * them when a record is published. Replicas join and leave under the write lock with nothing
     * pending (so between two writes) and under the apply lock.
     */
    private final Replicas replicas = new Replicas(this::maintenanceProgressed);
    /** Write backpressure: admits table writes while every replica's maintenance keeps up. */
    private final WriteAdmission admission = new WriteAdmission(
            () -> this.systemParameters.get(Params.MAX_MAINTENANCE_LAG).toMillis(), replicas::backlog);
    /** The clusters and their replicas (catalog); published like {@code catalog}, changed when a record is published. */
    private volatile Clusters clusters = Clusters.empty();
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
     * a published record (under applyLock).
     */
    private SystemParameters systemParameters = new SystemParameters();

    private record Pending(long time, LogRecord record, CompletableFuture<Void> durable) {}

    private Coordinator(WriteAheadLog log, TimestampOracle oracle, ReplicaProvisioner provisioner) {
        this.log = log;
        this.oracle = oracle;
        this.provisioner = provisioner;
    }

    /** Opens the log in {@code config.dataDir()} and replays it into catalog and tables, without compute. */
    public static Coordinator open(EngineConfig config) {
        return open(config, (ReplicaProvisioner) spec -> ComputeController.NONE);
    }

    /**
     * Opens the log in {@code config.dataDir()}, replays it into catalog and tables, and
     * from then on feeds every applied write to {@code compute}: {@code compute} is the
     * first replica provisioned (the {@code default} cluster's {@code r1} unless that
     * cluster was dropped); replicas created later are {@link ComputeReplica}s of their
     * size ({@link ComputeController#NONE} when {@code compute} is NONE).
     */
    public static Coordinator open(EngineConfig config, ComputeController compute) {
        if (compute == ComputeController.NONE) return open(config);
        java.util.concurrent.atomic.AtomicBoolean given = new java.util.concurrent.atomic.AtomicBoolean();
        return open(config, (ReplicaProvisioner) spec -> given.compareAndSet(false, true) ? compute
                : new ComputeReplica(spec.workers()));
    }

    /**
     * Opens the log in {@code config.dataDir()}, replays it into catalog and tables,
     * provisions every replica of every cluster with {@code provisioner} (each with the
     * runtime mode recorded when it was created), creates the {@code default} cluster on
     * a log that never had a cluster, and rehydrates every index and materialized view on
     * the replicas of its cluster.
     */
    public static Coordinator open(EngineConfig config, ReplicaProvisioner provisioner) {
        WriteAheadLog log = WriteAheadLog.open(config.dataDir(), config.fsync());
        Coordinator c = new Coordinator(log, new TimestampOracle(), provisioner);
        try {
            c.systemParameters = SystemParameters.withStartupDefaults(config.systemParameterDefaults());
            c.recover();
            c.startReplicas();
            if (!c.clusters.everCreated()) c.createDefaultCluster(config.workers());
            c.installAllDataflows();
        } catch (RuntimeException e) {
            c.replicas.close();
            log.close();
            throw e;
        }
        c.ticker.scheduleWithFixedDelay(c::idleTickSafely, IDLE_TICK_MS / 2, IDLE_TICK_MS / 2, TimeUnit.MILLISECONDS);
        return c;
    }

    /**
     * The compute of the {@code default} cluster's first replica (NONE when there is
     * none), for callers that predate clusters; sessions use {@link #compute(String, String)}.
     */
    public ComputeController compute() {
        Optional<ClusterDef> d = clusters.byName(SystemRelations.DEFAULT_CLUSTER);
        if (d.isEmpty()) return ComputeController.NONE;
        for (ReplicaDef r : d.get().replicas()) {
            Optional<Replicas.Live> live = replicas.get(r.id());
            if (live.isPresent()) return live.get().compute();
        }
        return ComputeController.NONE;
    }

    /**
     * The compute that serves reads for a session on {@code cluster}: its first replica,
     * or the one named {@code replica} (null or empty: any). Its readers are that
     * replica's (indexes and materialized views of {@code cluster}) plus the materialized
     * views of other clusters, read from a replica of theirs: Materialize's rule that an
     * index is usable only on its own cluster, and a materialized view everywhere.
     *
     * @throws SqlException 42704 for an unknown cluster or replica, or a cluster without replicas
     */
    public ComputeController compute(String cluster, String replica) {
        Replicas.Live live = chooseReplica(cluster, replica);
        return new SessionCompute(live.compute(), live.spec().cluster(), this::foreignMaterializedView);
    }

    /**
     * What the replica serving a session on {@code cluster} (and {@code replica}, when
     * set) was provisioned with: the replica {@link #compute(String, String)} reads from.
     * Its own controller is {@link #replica}{@code (spec.replicaId())}.
     *
     * @throws SqlException 42704 as for {@link #compute(String, String)}
     */
    public ReplicaSpec servingReplica(String cluster, String replica) {
        return chooseReplica(cluster, replica).spec();
    }

    private Replicas.Live chooseReplica(String cluster, String replica) {
        ClusterDef c = clusters.require(cluster);
        ReplicaDef chosen = null;
        if (replica == null || replica.isEmpty()) {
            if (!c.replicas().isEmpty()) chosen = c.replicas().get(0);
        } else {
            chosen = c.replica(replica).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_OBJECT,
                    "unknown cluster replica '" + cluster + "." + replica + "'"));
        }
        if (chosen == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "cluster '" + cluster + "' has no replicas", null,
                    "Add one with CREATE CLUSTER REPLICA " + cluster + ".r1 SIZE 'scale=1,workers=1', "
                            + "or ALTER CLUSTER " + cluster + " SET (REPLICATION FACTOR = 1).");
        }
        ReplicaDef r = chosen;
        return replicas.get(r.id()).orElseThrow(() ->
                new SqlException(SqlState.UNDEFINED_OBJECT, "cluster replica '" + cluster + "." + r.name() + "' is not running"));
    }

    /**
     * The reader of materialized view {@code id} from a replica of its own cluster, if
     * {@code id} is a materialized view on a cluster other than {@code sessionCluster}.
     */
    private Optional<CollectionReader> foreignMaterializedView(long id, String sessionCluster) {
        for (var m : catalog.materializedViews()) {
            if (m.id() != id) continue;
            if (m.cluster().equals(sessionCluster)) return Optional.empty();
            Optional<ClusterDef> c = clusters.byName(m.cluster());
            if (c.isEmpty()) return Optional.empty();
            for (ReplicaDef r : c.get().replicas()) {
                Optional<CollectionReader> reader = replicas.get(r.id()).flatMap(l -> l.compute().reader(id));
                if (reader.isPresent()) return reader;
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The reader of export {@code exportId} on any running replica (introspection). */
    public Optional<CollectionReader> exportReader(long exportId) {
        for (Replicas.Live r : replicas.all()) {
            Optional<CollectionReader> reader = r.compute().reader(exportId);
            if (reader.isPresent()) return reader;
        }
        return Optional.empty();
    }

    /** The clusters and replicas of the catalog now. */
    public Clusters clusters() { return clusters; }

    /** What running replica {@code replicaId} was provisioned with. */
    public Optional<ReplicaSpec> replicaSpec(String replicaId) { return replicas.get(replicaId).map(Replicas.Live::spec); }

    /** The compute of running replica {@code replicaId} (the provisioned controller itself). */
    public Optional<ComputeController> replica(String replicaId) {
        return replicas.get(replicaId).map(Replicas.Live::compute);
    }

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
                prepare(record, t).publish();
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

    /** A durable record made ready to apply: everything that allocates or can fail is done. */
    @FunctionalInterface
    private interface Prepared {
        /** Installs the record in catalog, tables and replicas. Holds applyLock. */
        void publish();
    }

    /**
     * Prepares one durable record, at {@code time}, for catalog, tables and replicas
     * without changing any of them: the new catalog values and table batches are built
     * here; {@link Prepared#publish} only installs them. Holds applyLock; the caller
     * publishes right away (nothing may change in between).
     */
    private Prepared prepare(LogRecord record, long time) {
        if (!replaying) FaultPoints.hit(FaultPoints.Point.APPLY);
        Runnable install = switch (record) {
            case LogRecord.CreateTable ct -> {
                TableDef def = ct.table();
                Catalog next = catalog.withTable(def);
                Table table = new Table(def, time);
                yield () -> {
                    catalog = next;
                    tables.put(def.id(), table);
                };
            }
            case LogRecord.DropTable dt -> {
                Catalog next = catalog.withoutTable(dt.tableId());
                yield () -> {
                    catalog = next;
                    tables.remove(dt.tableId());
                };
            }
            case LogRecord.TableWrite tw -> {
                Map<Long, Changes> byTable = new HashMap<>();
                for (TableChange ch : tw.changes()) {
                    byTable.computeIfAbsent(ch.tableId(), k -> new Changes()).add(ch.row(), ch.diff());
                }
                byTable.keySet().retainAll(tables.keySet());
                List<Table.Prepared> batches = new ArrayList<>(byTable.size());
                for (var e : byTable.entrySet()) batches.add(tables.get(e.getKey()).prepare(tw.time(), e.getValue()));
                yield () -> {
                    for (Table.Prepared b : batches) b.publish();
                    if (!replaying) replicas.inputChanges(tw.time(), byTable);
                };
            }
            case LogRecord.CatalogEntry e when e.kind().equals(ViewCodec.KIND) ->
                    catalogChange(catalog.withView(ViewCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(ViewCodec.KIND) ->
                    catalogChange(catalog.withoutView(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(IndexCodec.KIND) ->
                    catalogChange(catalog.withIndex(IndexCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(IndexCodec.KIND) ->
                    catalogChange(catalog.withoutIndex(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(MaterializedViewCodec.KIND) ->
                    catalogChange(catalog.withMaterializedView(MaterializedViewCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(MaterializedViewCodec.KIND) ->
                    catalogChange(catalog.withoutMaterializedView(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(ClusterCodec.KIND) -> {
                Clusters next = clusters.with(ClusterCodec.decode(e.name(), e.payload()));
                yield () -> clusters = next;
            }
            case LogRecord.CatalogRemoval r when r.kind().equals(ClusterCodec.KIND) -> {
                Clusters next = clusters.without(r.name());
                yield () -> clusters = next;
            }
            case LogRecord.CatalogEntry e when e.kind().equals(SystemParameterCodec.KIND) -> {
                String text = SystemParameterCodec.decode(e.name(), e.payload());
                yield () -> applySystemParameter(e.name(), text);
            }
            case LogRecord.CatalogRemoval r when r.kind().equals(SystemParameterCodec.KIND) ->
                    () -> applySystemParameter(r.name(), null);
            default -> throw new IllegalStateException("unexpected log record " + record);
        };
        return () -> {
            install.run();
            // Every table is complete through this time, written or not, so a read at it
            // (the read timestamp is the last applied record's) finds every input readable.
            for (Table t : tables.values()) t.advanceUpper(time + 1);
            if (!replaying && !(record instanceof LogRecord.TableWrite)) replicas.advanceTo(time + 1);
        };
    }

    private Runnable catalogChange(Catalog next) {
        return () -> catalog = next;
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
        admission.progressed(); // max_maintenance_lag may have changed
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
        return commit(changes, AdmissionLimit.NONE);
    }

    /**
     * {@link #commit(List)}, admitted by write backpressure first: waits (within {@code
     * limit}) while a replica's maintenance backlog is over {@code max_maintenance_lag}.
     * Inside {@link #serialized} the write was admitted there and goes straight on.
     *
     * @throws SqlException 57014 when {@code limit} cancels the wait (nothing was written);
     *                      XX000 once the coordinator stopped
     */
    public long commit(List<TableChange> changes, AdmissionLimit limit) {
        if (changes.isEmpty()) return oracle.readTimestamp();
        checkNotStopped();
        // Holding the write lock, this thread was admitted by serialized(): never wait with the lock held.
        if (writeLock.isHeldByCurrentThread()) return submit(ts -> new LogRecord.TableWrite(ts, List.copyOf(changes)));
        try (WriteAdmission.Ticket admitted = admission.admit(limit.cancel(), limit.deadlineNanos())) {
            return submit(ts -> new LogRecord.TableWrite(ts, List.copyOf(changes)));
        }
    }

    /**
     * Runs {@code work} while holding the write lock, after every earlier write has been
     * applied: a read inside {@code work} at {@link #readTimestamp()} sees the latest
     * state, and no other write can interleave before {@code work}'s own commit.
     */
    public <T> T serialized(Supplier<T> work) {
        return serialized(AdmissionLimit.NONE, work);
    }

    /**
     * {@link #serialized(Supplier)} for a read-modify-write (UPDATE, DELETE, INSERT ...
     * SELECT): admitted by write backpressure (within {@code limit}) before it takes the
     * write lock, so its own commit inside {@code work} does not wait again.
     */
    public <T> T serialized(AdmissionLimit limit, Supplier<T> work) {
        checkNotStopped();
        if (writeLock.isHeldByCurrentThread()) return work.get(); // nested: admitted by the outer call
        try (WriteAdmission.Ticket admitted = admission.admit(limit.cancel(), limit.deadlineNanos())) {
            writeLock.lock();
            try {
                awaitAllApplied();
                return work.get();
            } finally {
                writeLock.unlock();
            }
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

    // ---------------------------------------------------------------- clusters and replicas

    /** At start: provisions every replica the catalog records, each with its recorded runtime mode. */
    private void startReplicas() {
        for (ClusterDef c : clusters.all()) {
            List<Replicas.Live> started = provision(c, c.replicas());
            synchronized (applyLock) {
                started.forEach(replicas::add);
            }
        }
    }

    /** On a log that never had a cluster: the managed {@code default} cluster, one replica {@code r1} of {@code workers}. */
    private void createDefaultCluster(int workers) {
        writeLock.lock();
        try {
            awaitAllApplied();
            ClusterSize size = ClusterSize.ofWorkers(Math.max(1, Math.min(ClusterSize.MAX_WORKERS, workers)));
            Clusters now = clusters;
            ClusterDef def = new ClusterDef(now.newClusterId(), SystemRelations.DEFAULT_CLUSTER, true, size, 1,
                    newReplicas(now, size, 1, 0));
            startThenLog(def, provision(def, def.replicas()), List.of());
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * CREATE CLUSTER: managed (SIZE, REPLICATION FACTOR n: replicas r1..rn) or unmanaged
     * (the listed replicas). 42710 if the name is taken, 22023 for a bad size.
     */
    public ClusterDef createCluster(Statement.CreateCluster s) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Clusters now = clusters;
            if (now.byName(s.name()).isPresent()) {
                throw new SqlException(SqlState.DUPLICATE_OBJECT, "cluster '" + s.name() + "' already exists");
            }
            ClusterDef def;
            if (s.managed()) {
                ClusterSize size = ClusterSize.parse(s.size());
                checkReplicationFactor(s.replicationFactor());
                def = new ClusterDef(now.newClusterId(), s.name(), true, size, s.replicationFactor(),
                        newReplicas(now, size, s.replicationFactor(), 0));
            } else {
                List<ReplicaDef> list = new ArrayList<>();
                boolean interactive = interactiveRuntimeNow();
                for (Statement.ReplicaOption o : s.replicas()) {
                    if (list.stream().anyMatch(r -> r.name().equals(o.name()))) {
                        throw new SqlException(SqlState.DUPLICATE_OBJECT,
                                "cluster replica '" + s.name() + "." + o.name() + "' already exists");
                    }
                    list.add(new ReplicaDef(now.newReplicaId(list.size()), o.name(), ClusterSize.parse(o.size()), interactive));
                }
                def = new ClusterDef(now.newClusterId(), s.name(), false, null, list.size(), list);
            }
            startThenLog(def, provision(def, def.replicas()), List.of());
            return def;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * ALTER CLUSTER c SET (SIZE = ..., REPLICATION FACTOR = ...) of a managed cluster:
     * re-provisions. New replicas r1..rn (new ids, provisioned with the system parameters
     * as they are now) hydrate every dataflow of the cluster, then replace the old ones,
     * which are dropped. Unmanaged clusters are 0A000.
     */
    public ClusterDef alterCluster(Statement.AlterCluster s) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Clusters now = clusters;
            ClusterDef old = now.require(s.name());
            if (!old.managed()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "cannot ALTER CLUSTER SET (SIZE, REPLICATION FACTOR) of unmanaged cluster '" + old.name() + "'",
                        null, "Use CREATE CLUSTER REPLICA and DROP CLUSTER REPLICA.");
            }
            ClusterSize size = s.size() != null ? ClusterSize.parse(s.size()) : old.size();
            int factor = s.replicationFactor() >= 0 ? s.replicationFactor() : old.replicationFactor();
            checkReplicationFactor(factor);
            ClusterDef def = new ClusterDef(old.id(), old.name(), true, size, factor, newReplicas(now, size, factor, 0));
            List<Replicas.Live> started = provision(def, def.replicas());
            hydrateNew(def.name(), started);
            startThenLog(def, started, old.replicas());
            return def;
        } finally {
            writeLock.unlock();
        }
    }

    /** CREATE CLUSTER REPLICA c.r SIZE '...': unmanaged clusters only; the new replica hydrates the cluster's dataflows. */
    public ReplicaDef createClusterReplica(Statement.CreateClusterReplica s) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Clusters now = clusters;
            ClusterDef old = now.require(s.cluster());
            if (old.managed()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "cannot create more replicas in managed cluster '" + old.name() + "'", null,
                        "Use ALTER CLUSTER " + old.name() + " SET (REPLICATION FACTOR = n).");
            }
            if (old.replica(s.replica()).isPresent()) {
                throw new SqlException(SqlState.DUPLICATE_OBJECT,
                        "cluster replica '" + old.name() + "." + s.replica() + "' already exists");
            }
            ReplicaDef r = new ReplicaDef(now.newReplicaId(0), s.replica(), ClusterSize.parse(s.size()), interactiveRuntimeNow());
            List<ReplicaDef> all = new ArrayList<>(old.replicas());
            all.add(r);
            ClusterDef def = old.withReplicas(all);
            List<Replicas.Live> started = provision(def, List.of(r));
            hydrateNew(def.name(), started);
            startThenLog(def, started, List.of());
            return r;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * DROP CLUSTER REPLICA c.r, ...: unmanaged clusters only (0A000 for managed ones);
     * unknown replicas are 42704 unless {@code ifExists}.
     */
    public void dropClusterReplicas(List<Statement.ReplicaName> names, boolean ifExists) {
        writeLock.lock();
        try {
            awaitAllApplied();
            for (Statement.ReplicaName n : names) {
                Optional<ClusterDef> c = clusters.byName(n.cluster());
                if (c.isEmpty()) {
                    if (ifExists) continue;
                    throw Clusters.unknownCluster(n.cluster());
                }
                Optional<ReplicaDef> r = c.get().replica(n.replica());
                if (r.isEmpty()) {
                    if (ifExists) continue;
                    throw new SqlException(SqlState.UNDEFINED_OBJECT,
                            "unknown cluster replica '" + n.cluster() + "." + n.replica() + "'");
                }
                if (c.get().managed()) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                            "cannot drop replicas of managed cluster '" + n.cluster() + "'", null,
                            "Use ALTER CLUSTER " + n.cluster() + " SET (REPLICATION FACTOR = n).");
                }
                List<ReplicaDef> rest = new ArrayList<>(c.get().replicas());
                rest.remove(r.get());
                startThenLog(c.get().withReplicas(rest), List.of(), List.of(r.get()));
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * DROP CLUSTER c, ...: unknown names are 42704 unless {@code ifExists}. Without
     * {@code cascade} a cluster holding indexes or materialized views is 2BP01; with it
     * they (and what depends on them) are dropped first. Then the cluster's replicas stop.
     */
    public void dropClusters(List<String> names, boolean ifExists, boolean cascade) {
        writeLock.lock();
        try {
            awaitAllApplied();
            List<ClusterDef> targets = new ArrayList<>();
            for (String n : names) {
                Optional<ClusterDef> c = clusters.byName(n);
                if (c.isPresent()) {
                    if (!targets.contains(c.get())) targets.add(c.get());
                } else if (!ifExists) {
                    throw Clusters.unknownCluster(n);
                }
            }
            for (ClusterDef c : targets) {
                List<String> dependents = objectsOn(catalog, c.name());
                if (!dependents.isEmpty() && !cascade) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop cluster \"" + c.name() + "\" because other objects depend on it",
                            "depended upon by " + String.join(", ", dependents),
                            "Use DROP CLUSTER " + c.name() + " CASCADE to drop them too.");
                }
            }
            for (ClusterDef c : targets) {
                List<String> mvs = catalog.materializedViews().stream().filter(m -> m.cluster().equals(c.name()))
                        .map(MaterializedViewDef::name).toList();
                if (!mvs.isEmpty()) dropObjects(Statement.ObjectKind.MATERIALIZED_VIEW, mvs, true, true);
                List<String> indexes = catalog.indexes().stream().filter(i -> i.cluster().equals(c.name()))
                        .map(IndexDef::name).toList();
                if (!indexes.isEmpty()) dropObjects(Statement.ObjectKind.INDEX, indexes, true, true);
                submit(ts -> new LogRecord.CatalogRemoval(ClusterCodec.KIND, c.id()));
                stop(c.replicas());
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** The indexes and materialized views on {@code cluster}, by name. */
    private static List<String> objectsOn(Catalog catalog, String cluster) {
        List<String> out = new ArrayList<>();
        catalog.indexes().stream().filter(i -> i.cluster().equals(cluster)).forEach(i -> out.add(i.name()));
        catalog.materializedViews().stream().filter(m -> m.cluster().equals(cluster)).forEach(m -> out.add(m.name()));
        out.sort(null);
        return out;
    }

    private static void checkReplicationFactor(int factor) {
        if (factor < 0 || factor > 16) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "REPLICATION FACTOR must be between 0 and 16, got " + factor);
        }
    }

    /** {@code count} new replica definitions r{first+1}.. of {@code size}, with the runtime mode the flag says now. */
    private List<ReplicaDef> newReplicas(Clusters now, ClusterSize size, int count, int first) {
        boolean interactive = interactiveRuntimeNow();
        List<ReplicaDef> out = new ArrayList<>();
        for (int k = 0; k < count; k++) out.add(new ReplicaDef(now.newReplicaId(k), "r" + (first + k + 1), size, interactive));
        return out;
    }

    /** {@code enable_compute_interactive_runtime} now: read once per replica, when it is created. */
    private boolean interactiveRuntimeNow() {
        return systemParameters.get(io.stillwater.engine.params.Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME);
    }

    /**
     * Provisions {@code list} (replicas of {@code cluster}) with the system parameters as
     * they are now; if one fails, the ones already provisioned are closed.
     */
    private List<Replicas.Live> provision(ClusterDef cluster, List<ReplicaDef> list) {
        List<Replicas.Live> out = new ArrayList<>();
        try {
            for (ReplicaDef r : list) {
                ReplicaSpec spec = new ReplicaSpec(cluster.name(), r.name(), r.id(), r.size().workers(),
                        r.interactiveRuntime(), systemParameters.snapshot());
                out.add(new Replicas.Live(spec, provisioner.provision(spec)));
            }
            return out;
        } catch (RuntimeException e) {
            out.forEach(Replicas::closeQuietly);
            throw e;
        }
    }

    /** Hydrates the dataflows of {@code cluster} on newly provisioned replicas (closed again on failure). */
    private void hydrateNew(String cluster, List<Replicas.Live> started) {
        List<Replicas.Live> targets = new ArrayList<>(started);
        targets.removeIf(r -> r.compute() == ComputeController.NONE);
        try {
            if (!targets.isEmpty()) hydrateCluster(cluster, targets);
        } catch (RuntimeException e) {
            started.forEach(Replicas::closeQuietly);
            throw e;
        }
    }

    /**
     * Makes {@code def} durable with {@code started} replicas joining the broadcast and
     * {@code stopped} ones leaving it. Caller holds the write lock with nothing pending,
     * so no write falls between a replica's hydration snapshot and its joining. If the
     * log append fails, the started replicas are closed and the old ones keep running.
     */
    private void startThenLog(ClusterDef def, List<Replicas.Live> started, List<ReplicaDef> stopped) {
        synchronized (applyLock) {
            started.forEach(replicas::add);
        }
        byte[] payload = ClusterCodec.encode(def);
        try {
            submit(ts -> new LogRecord.CatalogEntry(ClusterCodec.KIND, def.id(), payload));
        } catch (RuntimeException e) {
            synchronized (applyLock) {
                started.forEach(r -> replicas.remove(r.spec().replicaId()));
            }
            started.forEach(Replicas::closeQuietly);
            throw e;
        }
        stop(stopped);
    }

    /** Stops and closes the running replicas among {@code list}. */
    private void stop(List<ReplicaDef> list) {
        List<Replicas.Live> removed = new ArrayList<>();
        synchronized (applyLock) {
            for (ReplicaDef r : list) replicas.remove(r.id()).ifPresent(removed::add);
        }
        removed.forEach(Replicas::closeQuietly);
    }

    // ---------------------------------------------------------------- indexes and materialized views

    /** {@code cluster} if it exists; 42704 {@code unknown cluster 'x'} (Materialize's wording) if not. */
    public String resolveCluster(String cluster) {
        return clusters.require(cluster).name();
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
        return createIndex(s, SystemRelations.DEFAULT_CLUSTER);
    }

    /** CREATE INDEX on {@code IN CLUSTER}'s cluster, else {@code sessionCluster}; 42704 if it does not exist. */
    public Optional<IndexDef> createIndex(Statement.CreateIndex s, String sessionCluster) {
        writeLock.lock();
        try {
            awaitAllApplied();
            String cluster = resolveCluster(s.cluster() != null ? s.cluster() : sessionCluster);
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
            DataflowSpec spec = planner.index(current.forCluster(cluster), def);
            byte[] payload = IndexCodec.encode(def);
            installThenLog(spec, cluster, () -> submit(ts -> new LogRecord.CatalogEntry(IndexCodec.KIND, name, payload)));
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
        return createMaterializedView(s, SystemRelations.DEFAULT_CLUSTER);
    }

    /** CREATE MATERIALIZED VIEW on {@code IN CLUSTER}'s cluster, else {@code sessionCluster}; 42704 if it does not exist. */
    public Optional<MaterializedViewDef> createMaterializedView(Statement.CreateMaterializedView s, String sessionCluster) {
        writeLock.lock();
        try {
            awaitAllApplied();
            String cluster = resolveCluster(s.cluster() != null ? s.cluster() : sessionCluster);
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
            DataflowSpec spec = planner.materializedView(current.forCluster(cluster), def);
            byte[] payload = MaterializedViewCodec.encode(def);
            installThenLog(spec, cluster, () -> submit(ts -> new LogRecord.CatalogEntry(MaterializedViewCodec.KIND, name, payload)));
            old.ifPresent(o -> uninstallDataflow(o.id()));
            return Optional.of(def);
        } finally {
            writeLock.unlock();
        }
    }

    /** Installs {@code spec}'s dataflow, then runs {@code log}; drops the dataflow again if logging fails. */
    private void installThenLog(DataflowSpec spec, String cluster, Runnable log) {
        try {
            installDataflow(spec, cluster);
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
        for (ClusterDef c : clusters.all()) {
            List<Replicas.Live> targets = liveReplicasOf(c);
            targets.removeIf(r -> r.compute() == ComputeController.NONE);
            if (!targets.isEmpty()) hydrateCluster(c.name(), targets);
        }
    }

    /**
     * Installs every index and materialized view of {@code cluster} on {@code targets}
     * (new or restarted replicas), in id order, so each one's inputs (tables, and the
     * collections of older exports it imports) exist before it. Each is planned against
     * the catalog as it was when it was created as far as indexes go ({@link
     * Catalog#withIndexesBelow}) and as its cluster sees it ({@link Catalog#forCluster}).
     * An object that no longer plans is logged and left without a dataflow.
     */
    private void hydrateCluster(String cluster, List<Replicas.Live> targets) {
        writeLock.lock();
        try {
            awaitAllApplied();
            Catalog all = catalog;
            List<Object> items = new ArrayList<>();
            all.indexes().stream().filter(i -> i.cluster().equals(cluster)).forEach(items::add);
            all.materializedViews().stream().filter(m -> m.cluster().equals(cluster)).forEach(items::add);
            items.sort(java.util.Comparator.comparingLong(o -> o instanceof IndexDef i ? i.id() : ((MaterializedViewDef) o).id()));
            for (Object o : items) {
                DataflowSpec spec;
                try {
                    spec = switch (o) {
                        case IndexDef i -> dataflowPlanner().index(all.withIndexesBelow(i.id()).forCluster(cluster), i);
                        case MaterializedViewDef m -> dataflowPlanner().materializedView(
                                all.withIndexesBelow(m.id()).forCluster(cluster), m);
                        default -> throw new IllegalStateException();
                    };
                } catch (RuntimeException e) {
                    LOG.error("could not plan the dataflow of {} on cluster {}", o, cluster, e);
                    continue;
                }
                for (Replicas.Live r : targets) {
                    synchronized (applyLock) {
                        try {
                            installOn(r.compute(), spec);
                        } catch (RuntimeException e) {
                            LOG.error("could not build the dataflow of {} on replica {}.{}", o, cluster, r.spec().replica(), e);
                        }
                    }
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- idle tick

    private void idleTickSafely() {
        try {
            idleTick();
        } catch (Throwable e) {
            // Never let it escape: the scheduler would silently stop ticking for good.
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
        replicas.advanceTo(ts + 1);
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

    /**
     * Assigns a timestamp, appends, waits until durable and applied. A failure before the
     * append (the WRITE fault point included) leaves nothing behind: the lock is released
     * and nothing is pending.
     */
    private long submit(RecordAt make) {
        Pending p;
        writeLock.lock();
        try {
            checkNotStopped();
            FaultPoints.hit(FaultPoints.Point.WRITE);
            long ts = oracle.writeTimestamp();
            LogRecord record = make.at(ts);
            CompletableFuture<Void> durable = log.appendAsync(record);
            try {
                p = new Pending(ts, record, durable);
                synchronized (applyLock) {
                    pending.addLast(p);
                }
            } catch (Throwable t) {
                // Appended but not tracked: the log holds a record memory never applies.
                synchronized (applyLock) {
                    stop(ts, t);
                }
                throw stoppedError();
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
                // Durable but not applied, and never will be by this process.
                if (stopped != null) throw stoppedError();
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

    /**
     * Applies every durable record at the head of {@code pending}, in order. A record
     * leaves {@code pending} only once published. Never throws: a record that cannot be
     * applied stops the coordinator ({@link #stop}); its writer and every later one then
     * fail with {@link #stoppedError()}. Holds applyLock.
     */
    private void drainDurable() {
        boolean any = false;
        while (stopped == null && !pending.isEmpty() && pending.peekFirst().durable().isDone()) {
            Pending head = pending.peekFirst();
            if (head.durable().isCompletedExceptionally()) {
                pending.pollFirst(); // never durable: its writer fails; nothing to apply
                continue;
            }
            Prepared ready = prepareWithRetry(head);
            if (ready == null) break; // stopped
            try {
                ready.publish();
            } catch (Throwable t) {
                // Half installed: tables, replicas and oracle may disagree. No retry.
                stop(head.time(), t);
                break;
            }
            pending.pollFirst();
            oracle.applyWrite(head.time());
            any = true;
        }
        if (any || stopped != null) {
            if (any) lastAdvanceNanos = System.nanoTime();
            applyLock.notifyAll();
        }
    }

    /**
     * Prepares {@code head}; on failure (nothing changed) tries once more at once. Returns
     * null when the second attempt fails too: the coordinator is stopped then. Holds applyLock.
     */
    private Prepared prepareWithRetry(Pending head) {
        try {
            return prepare(head.record(), head.time());
        } catch (Throwable first) {
            LOG.warn("applying the committed write at {} failed; nothing was changed, retrying once", head.time(), first);
        }
        try {
            return prepare(head.record(), head.time());
        } catch (Throwable second) {
            stop(head.time(), second);
            return null;
        }
    }

    /**
     * The record at {@code time} is durable but cannot be applied: stops accepting writes
     * (memory would be behind the log) and tells the {@link #onStopped} handler on a new
     * thread (it may exit the process, which runs shutdown hooks that need this
     * coordinator's locks). Holds applyLock; idempotent.
     */
    private void stop(long time, Throwable cause) {
        if (stopped != null) return;
        String incident = Long.toHexString(System.nanoTime() ^ time).toUpperCase(java.util.Locale.ROOT);
        LOG.error("[incident {}] could not apply the committed write at {}: the engine accepts no more writes; "
                + "restart it to recover from the log", incident, time, cause);
        stopped = new SqlException(SqlState.INTERNAL_ERROR,
                "internal error: could not apply a committed write; restart the server",
                "The write is durable in the log and is applied when the server restarts (incident " + incident
                        + " in the server log).", null);
        applyLock.notifyAll();
        tellStopped(stoppedHandler, stopped);
    }

    /** Runs {@code handler} on a thread of its own; never throws (the caller may hold the apply lock). */
    private static void tellStopped(java.util.function.Consumer<SqlException> handler, SqlException reason) {
        try {
            Thread.ofPlatform().daemon().name("stillwater-stopped").start(() -> handler.accept(reason));
        } catch (Throwable t) { // e.g. no memory for a thread: writes are refused all the same
            LOG.error("could not report that the engine stopped", t);
        }
    }

    /** The error every write gets once the coordinator stopped (a fresh exception per caller). */
    private SqlException stoppedError() {
        SqlException s = stopped;
        return new SqlException(s.state(), s.getMessage(), s.detail(), s.hint());
    }

    private void checkNotStopped() {
        if (stopped != null) throw stoppedError();
    }

    /** Whether a committed write could not be applied (see the class comment): writes are refused. */
    public boolean isStopped() { return stopped != null; }

    /**
     * Tells {@code handler} (once, on a thread of its own) when the coordinator stops
     * because a committed write could not be applied; {@code serve} exits the process
     * there so a supervisor restarts it from the log.
     */
    public void onStopped(java.util.function.Consumer<SqlException> handler) {
        stoppedHandler = handler;
        SqlException s = stopped;
        if (s != null) tellStopped(handler, s);
    }

    // ---------------------------------------------------------------- write backpressure

    /** A replica made maintenance progress, or replicas changed: writers waiting for admission look again. */
    private void maintenanceProgressed() {
        // Called while the coordinator is constructed (field initializers) too: admission may be null then.
        WriteAdmission a = admission;
        if (a != null) a.progressed();
    }

    /**
     * Write backpressure now, per running replica (introspection): its maintenance
     * backlog, with the bound and the writers waiting for admission (coordinator-wide).
     */
    public List<WriteBackpressure> writeBackpressure() {
        long bound = systemParameters.get(Params.MAX_MAINTENANCE_LAG).toMillis();
        int waiting = admission.waiting();
        List<WriteBackpressure> out = new ArrayList<>();
        for (Replicas.Live r : replicas.all()) {
            var b = r.compute().backlog();
            out.add(new WriteBackpressure(r.spec().cluster(), r.spec().replica(), r.spec().replicaId(), b.lagMillis(),
                    b.oldestAgeNanos() / 1_000_000, b.queuedWrites(), b.perWriteNanos() / 1_000,
                    b.peakLagNanos() / 1_000_000, bound, waiting,
                    admission.admittedAfterWait(), admission.waitedMillis()));
        }
        out.sort(java.util.Comparator.comparing(WriteBackpressure::replicaId));
        return out;
    }

    /**
     * One replica's row of {@code mz_internal.mz_write_backpressure}.
     *
     * @param backlogMs         the backlog admission compares with the bound: the larger of {@code
     *                          oldestWriteMs} and the time to process the queued writes ({@code
     *                          queuedWrites} x {@code writeCostUs})
     * @param oldestWriteMs     age of the oldest write handed to the replica that a worker has not processed
     * @param queuedWrites      writes handed to it that not every worker has processed
     * @param writeCostUs       recent maintenance time per write (a moving average, slowest worker), µs
     * @param peakLagMs         the longest any write took from hand-over to processed on this replica, since it started
     * @param boundMs           {@code max_maintenance_lag} now (0: off)
     * @param waitingWrites     writers waiting for admission now (all replicas)
     * @param admittedAfterWait writes admitted after waiting, since start (all replicas)
     * @param waitedMs          total time writers waited for admission, since start (all replicas)
     */
    public record WriteBackpressure(String cluster, String replica, String replicaId, long backlogMs,
                                    long oldestWriteMs, long queuedWrites, long writeCostUs, long peakLagMs,
                                    long boundMs, long waitingWrites, long admittedAfterWait,
                                    long waitedMs) {}

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
        return installDataflow(spec, SystemRelations.DEFAULT_CLUSTER);
    }

    /**
     * Starts maintaining {@code spec} on every running replica of {@code cluster} (none:
     * nothing to do until a replica is added, which then hydrates it), as
     * {@link #installDataflow(DataflowSpec)} does for one. If a replica refuses it, the
     * replicas that took it drop it again. Returns the hydration time.
     */
    public long installDataflow(DataflowSpec spec, String cluster) {
        writeLock.lock();
        try {
            awaitAllApplied();
            List<Replicas.Live> targets = liveReplicasOf(clusters.byName(cluster).orElse(null));
            List<Replicas.Live> done = new ArrayList<>();
            synchronized (applyLock) {
                try {
                    for (Replicas.Live r : targets) {
                        installOn(r.compute(), spec);
                        done.add(r);
                    }
                } catch (RuntimeException e) {
                    for (Replicas.Live r : done) r.compute().dropDataflow(spec.exportId());
                    throw e;
                }
                return oracle.readTimestamp();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Hands {@code spec} to one replica with its table inputs pinned at the latest applied
     * time. Caller holds writeLock (nothing pending) and applyLock.
     */
    private void installOn(ComputeController target, DataflowSpec spec) {
        Set<Long> tableInputs = new java.util.HashSet<>(PlanInputs.objectIds(spec.plan()));
        tableInputs.retainAll(tables.keySet());
        ReadContext rc = beginRead(tableInputs, -1);
        target.createDataflow(spec, new InputSnapshot(rc.asOf(), rc::read, rc, tableInputs));
    }

    /** The running replicas of {@code cluster} in its replica order; empty for null. */
    private List<Replicas.Live> liveReplicasOf(ClusterDef cluster) {
        List<Replicas.Live> out = new ArrayList<>();
        if (cluster == null) return out;
        for (ReplicaDef r : cluster.replicas()) replicas.get(r.id()).ifPresent(out::add);
        return out;
    }

    /** Stops maintaining export {@code exportId} on every replica, ordered with writes like {@link #installDataflow}. */
    public void uninstallDataflow(long exportId) {
        synchronized (applyLock) {
            for (Replicas.Live r : replicas.all()) r.compute().dropDataflow(exportId);
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
            if (SystemRelations.isSystem(id)) return SystemRelationRows.contents(id, coordinator.catalog(), coordinator);
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
            replicas.close();
        } finally {
            writeLock.unlock();
        }
    }
}
