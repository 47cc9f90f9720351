package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.CheckpointReader;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.table.Table;
import io.stillwater.engine.time.TimestampOracle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sequences every change to the database and the reads' timestamps: the composition root
 * of the coordinator's parts, which it creates at {@link #open} (recovering from the log)
 * and closes at {@link #close}. Each part owns one job:
 * <ul>
 *   <li>{@link WritePipeline}: timestamps, group commit, applying in timestamp order,
 *       write admission, idle ticks; it owns the two locks (write lock, then apply lock)
 *       every other part takes through it;</li>
 *   <li>{@link AppliedState}: what the log's records build (catalog, clusters, tables,
 *       system parameters), and {@link Recovery}, which replays the log into it;</li>
 *   <li>{@link CatalogSequencer}: DDL with cascade and ALTER SYSTEM;</li>
 *   <li>{@link ClusterControl}: clusters and replicas (provisioning), with {@link
 *       Hydration} of dataflows on them;</li>
 *   <li>{@link ReadTimestamps}: read timestamps and read holds, all a read (peek) needs
 *       from here, with {@link ServingReplicas} (which replica serves a read) and {@link
 *       SystemRelationRows} (the rows of built-in relations);</li>
 *   <li>{@link TableWriter}: the changes of INSERT, UPDATE and DELETE, committed.</li>
 * </ul>
 * Sessions get these parts ({@link #reads()}, {@link #writer()}, {@link #ddl()}, ...). The
 * methods below that delegate to them are for tools and tests that drive the engine
 * without a session.
 */
public final class Coordinator implements AutoCloseable {
    /** How long without an applied write before the idle tick advances time, in ms. */
    public static final long IDLE_TICK_MS = WritePipeline.IDLE_TICK_MS;

    private final int defaultWorkers;
    private final Replicas replicas;
    private final AppliedState state;
    private final WritePipeline pipeline;
    private final ServingReplicas serving;
    /** Materialized views' contents from the checkpoint, answering reads until their dataflows hydrate. */
    private final StoredViews storedViews;
    private final SystemRelationRows builtins;
    private final ReadTimestamps reads;
    private final Hydration hydration;
    private final ClusterControl clusterControl;
    private final CatalogSequencer sequencer;
    private final RoleSequencer roles;
    private final TableWriter writer;
    /** Writes checkpoints; set in {@link #open} once recovery is done. */
    private volatile Checkpointer checkpointer;
    /** Set once the pipeline exists; replicas report maintenance progress to its admission before that too. */
    private volatile WriteAdmission admission;

    private Coordinator(WriteAheadLog log, SystemParameters parameters, ReplicaProvisioner provisioner, int workers) {
        this.defaultWorkers = workers;
        // Replicas tell write admission when maintenance progresses (writers waiting look again).
        this.replicas = new Replicas(this::maintenanceProgressed);
        this.state = new AppliedState(parameters, replicas, this::maintenanceProgressed);
        WriteAdmission admission = new WriteAdmission(
                () -> parameters.get(Params.MAX_MAINTENANCE_LAG).toMillis(), replicas::backlog);
        this.pipeline = new WritePipeline(log, new TimestampOracle(), state, admission, new UniqueConstraints(state));
        this.admission = admission;
        this.storedViews = new StoredViews(() -> pipeline.oracle().readTimestamp());
        state.onTablesWritten(storedViews::tablesWritten);
        this.serving = new ServingReplicas(state, replicas, storedViews);
        this.builtins = new SystemRelationRows(state, serving, replicas, admission);
        this.reads = new ReadTimestamps(pipeline, state, builtins);
        Supplier<DataflowPlanner> planner = DataflowPlanner.lazily();
        this.hydration = new Hydration(pipeline, state, replicas, reads, planner);
        this.clusterControl = new ClusterControl(pipeline, state, replicas, hydration, provisioner);
        this.sequencer = new CatalogSequencer(pipeline, state, clusterControl, hydration, planner);
        this.writer = new TableWriter(pipeline, state::lastWritten);
        this.roles = new RoleSequencer(pipeline, state);
    }

    /** A replica made maintenance progress, replicas changed, or a parameter did: waiting writers look again. */
    private void maintenanceProgressed() {
        WriteAdmission a = admission; // null while the coordinator is constructed
        if (a != null) a.progressed();
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
        AtomicBoolean given = new AtomicBoolean();
        return open(config, (ReplicaProvisioner) spec -> given.compareAndSet(false, true) ? compute
                : new ComputeReplica(spec.workers()));
    }

    /**
     * Opens the log in {@code config.dataDir()}, replays it into catalog and tables
     * ({@link Recovery}), provisions every replica of every cluster with {@code
     * provisioner} (each with the runtime mode recorded when it was created), creates the
     * {@code default} cluster on a log that never had a cluster, and rehydrates every
     * index and materialized view on the replicas of its cluster.
     *
     * @throws SqlException 42704 / 22023 for a bad system parameter default in {@code config}
     */
    public static Coordinator open(EngineConfig config, ReplicaProvisioner provisioner) {
        // The newest valid checkpoint, and the log from the first segment it does not cover.
        Optional<CheckpointReader.Checkpoint> checkpoint = CheckpointReader.newest(config.dataDir());
        WriteAheadLog log = WriteAheadLog.open(config.dataDir(), config.fsync(), WriteAheadLog.DEFAULT_SEGMENT_BYTES,
                checkpoint.map(CheckpointReader.Checkpoint::firstSegment).orElse(1L));
        Coordinator c = null;
        try {
            SystemParameters parameters = SystemParameters.withStartupDefaults(config.systemParameterDefaults());
            c = new Coordinator(log, parameters, provisioner, config.workers());
            Recovery.replay(log, c.pipeline, c.state, checkpoint, c.storedViews);
            c.clusterControl.startRecordedReplicas();
            if (!c.state.clusters().everCreated()) c.clusterControl.createDefaultCluster(c.defaultWorkers);
            c.hydration.hydrateAll();
        } catch (RuntimeException e) {
            if (c != null) c.replicas.close();
            log.close();
            throw e;
        }
        c.pipeline.startTicking();
        c.checkpointer = new Checkpointer(c.pipeline, c.state, log, config.fsync(), c.state.systemParameters(),
                c::materializedViewReader);
        c.checkpointer.start(checkpoint.map(CheckpointReader.Checkpoint::firstSegment).orElse(1L));
        return c;
    }

    /** Materialized view {@code id}'s reader on any replica maintaining it, with its stored contents (checkpoints). */
    private Optional<CollectionReader> materializedViewReader(long id) {
        return storedViews.reader(id, serving.exportReader(id));
    }

    // ---------------------------------------------------------------- the parts, for sessions

    /** Read timestamps and read holds: what a read (peek) needs from the coordinator. */
    public ReadTimestamps reads() { return reads; }

    /** Which running replica serves a read. */
    public ServingReplicas serving() { return serving; }

    /** The rows of the built-in relations. */
    public SystemRelationRows builtins() { return builtins; }

    /** Table writes: INSERT, UPDATE, DELETE. */
    public TableWriter writer() { return writer; }

    /** DDL and ALTER SYSTEM. */
    public CatalogSequencer ddl() { return sequencer; }

    /** Roles, owners and privileges: their DDL, their state, and the engine's role directory. */
    public RoleSequencer roles() { return roles; }

    /** Clusters and replicas. */
    public ClusterControl clusterControl() { return clusterControl; }

    /** The catalog now (immutable; any thread). */
    public Catalog catalog() { return state.catalog(); }

    /** The live system parameters (thread-safe reads; see {@link SystemParameters}). */
    public SystemParameters systemParameters() { return state.systemParameters(); }

    /** Table {@code id}, while it exists. */
    public Optional<Table> table(long id) { return state.table(id); }

    // ---------------------------------------------------------------- for tools and tests

    /** The clusters and replicas of the catalog now. */
    public Clusters clusters() { return state.clusters(); }

    /** Commits {@code changes} at one new timestamp, waiting as long as admission takes; see {@link TableWriter#commit}. */
    public long commit(List<TableChange> changes) { return pipeline.commit(changes, AdmissionLimit.NONE); }

    /** See {@link CatalogSequencer#createTable}. */
    public Optional<TableDef> createTable(String name, List<ColumnDef> columns, boolean ifNotExists) {
        return sequencer.createTable(name, columns, ifNotExists);
    }

    /** DROP TABLE of every name (RESTRICT); unknown names are 42P01 unless {@code ifExists}. */
    public List<String> dropTables(List<String> names, boolean ifExists) {
        return sequencer.dropObjects(ObjectKind.TABLE, names, ifExists, false);
    }

    /** Starts maintaining {@code spec} on the {@code default} cluster's replicas; see {@link Hydration#install}. */
    public long installDataflow(DataflowSpec spec) { return hydration.install(spec, SystemRelations.DEFAULT_CLUSTER); }

    /** See {@link Hydration#install}. */
    public long installDataflow(DataflowSpec spec, String cluster) { return hydration.install(spec, cluster); }

    /** See {@link Hydration#uninstall}. */
    public void uninstallDataflow(long exportId) { hydration.uninstall(exportId); }

    /** Advances time now as an idle tick does; returns the new read timestamp. */
    public long advanceTime() { return pipeline.advanceTime(); }

    /** Whether a committed write could not be applied: writes are refused (see {@link WritePipeline}). */
    public boolean isStopped() { return pipeline.isStopped(); }

    /**
     * Tells {@code handler} (once, on a thread of its own) when the coordinator stops
     * because a committed write could not be applied; {@code serve} exits the process
     * there so a supervisor restarts it from the log.
     */
    public void onStopped(Consumer<SqlException> handler) { pipeline.onStopped(handler); }

    /** Write backpressure now, per running replica (introspection). */
    public List<WriteBackpressure> writeBackpressure() { return builtins.writeBackpressure(); }

    /** See {@link ReadTimestamps#readTimestamp}. */
    public long readTimestamp() { return reads.readTimestamp(); }

    /** See {@link ReadTimestamps#beginRead}. */
    public ReadContext beginRead(Collection<Long> tableIds, long fixedTime) { return reads.beginRead(tableIds, fixedTime); }

    /** Rows of a table at the latest time, for tests and tools. */
    public List<Row> scan(long tableId) {
        try (ReadContext rc = reads.beginRead(List.of(tableId), -1)) {
            Changes c = rc.read(tableId, rc.asOf());
            List<Row> out = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) for (long k = 0; k < c.diff(i); k++) out.add(c.row(i));
            return out;
        }
    }

    /** Checkpoints: {@code CHECKPOINT}, the last one written. */
    public Checkpointer checkpointer() { return checkpointer; }

    /**
     * Writes a checkpoint if anything was logged since the last one (so the next start
     * reads no log), stops the idle ticks, waits for pending writes, closes the log and
     * every replica.
     */
    @Override
    public void close() {
        Checkpointer cp = checkpointer;
        if (cp != null) cp.close(true);
        pipeline.close(replicas::close);
    }
}
