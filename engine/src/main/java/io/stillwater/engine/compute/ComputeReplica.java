package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.DataflowBuilder;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.params.ParameterSnapshot;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A compute replica: the {@link MaintenanceRuntime} that maintains indexes and
 * materialized views, on a two-runtime replica the {@link InteractiveRuntime} that serves
 * reads concurrently beside it, the {@link OffloadPool} that finishes long walks for both,
 * and the registry of what it holds (exports, their shared output traces, which dataflow
 * imports which).
 *
 * <p><b>Threads.</b> Command methods ({@link #createDataflow}, {@link #dropDataflow},
 * {@link #inputChanges}, {@link #advanceTo}) come from the coordinator under its apply
 * lock; they update the registry under this object's monitor and queue a command for
 * the workers, returning at once. The registry's reference counts are guarded by the
 * monitor; {@link #exports} is a concurrent map that session threads read
 * ({@link #reader}, {@link #readers}) without locking. The workers own the dataflows'
 * operator state and write the traces (see {@link Worker}).
 *
 * <p><b>Sharing.</b> An index whose (collection, key) equals a live trace's is a
 * <em>re-export</em>: it reads that trace, no new dataflow. A plan's {@code Get} of a
 * collection compute holds (not a table) imports that trace. A trace lives while an
 * export or an importing dataflow references it; dropping the last reference tears its
 * dataflow down.
 */
public final class ComputeReplica implements ComputeController {
    /**
     * Knobs of the maintenance runtime.
     *
     * @param hydrationChunk      input updates fed per hydration step (one fueled activation)
     * @param compactionLagMillis history kept readable below the frontier, for reads at a
     *                            slightly older timestamp (read holds keep anything pinned)
     * @param exertFuel           merge work spent per trace part when a worker has nothing
     *                            queued (0: never merge beyond what inserts pay for)
     */
    public record Tuning(int hydrationChunk, long compactionLagMillis, long exertFuel) {
        public static final Tuning DEFAULTS = new Tuning(10_000, 1_000, 1_024);

        public Tuning {
            if (hydrationChunk < 1) throw new IllegalArgumentException("hydrationChunk must be positive");
            if (compactionLagMillis < 0) throw new IllegalArgumentException("compactionLagMillis must not be negative");
        }
    }

    /**
     * What introspection shows of one export.
     *
     * @param dataflowId     the dataflow maintaining its trace (the export id of the first
     *                       export of that trace; a re-export shows its original's)
     * @param updates        updates stored in the trace over all workers (not rows)
     * @param batches        batches over all workers' spines
     * @param upper          the trace's frontier ({@code Long.MIN_VALUE} until hydrated)
     * @param hydrationSteps hydration activations (chunks) run so far
     * @param steps          maintenance steps (times with input) run so far
     */
    public record ExportInfo(long exportId, String name, long collectionId, long dataflowId, long updates,
                             long batches, long upper, boolean hydrated, boolean failed, long hydrationSteps,
                             long steps) {}

    private final int workers;
    private final ReplicaSpec spec;
    private final MaintenanceRuntime maintenance;
    /** Present on a two-runtime replica only: a solo replica serves every read in its worker loop. */
    private final Optional<InteractiveRuntime> interactive;
    /** Walks past their inline budget, in every placement. */
    private final OffloadPool offload;
    private final PeekTracker tracker;

    /** Live exports by export id. Written under the monitor, read by any thread. */
    private final Map<Long, ExportReader> exports = new ConcurrentHashMap<>();
    /** Live dataflows by id (= their trace's dataflowId), creation order. Guarded by this. */
    private final Map<Long, MaintainedDataflow> dataflows = new LinkedHashMap<>();
    private boolean closed; // guarded by this

    /**
     * A replica with {@code workers} maintenance threads and default tuning, provisioned
     * with the registry's default system parameters (so two runtimes: {@code
     * enable_compute_interactive_runtime} defaults to on).
     */
    public ComputeReplica(int workers) {
        this(workers, Tuning.DEFAULTS);
    }

    public ComputeReplica(int workers, Tuning tuning) {
        this(defaultSpec(workers, new SystemParameters().snapshot()
                .get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)), tuning);
    }

    /** The replica {@code spec} describes (the provisioner's constructor). */
    public ComputeReplica(ReplicaSpec spec) {
        this(spec, Tuning.DEFAULTS);
    }

    public ComputeReplica(ReplicaSpec spec, Tuning tuning) {
        this.spec = spec.params() == null ? new ReplicaSpec(spec.cluster(), spec.replica(), spec.replicaId(),
                spec.workers(), spec.interactiveRuntime(), new SystemParameters().snapshot())
                : spec;
        this.workers = spec.workers();
        this.maintenance = new MaintenanceRuntime(workers, tuning);
        this.interactive = this.spec.interactiveRuntime() ? Optional.of(new InteractiveRuntime()) : Optional.empty();
        this.offload = new OffloadPool("stillwater-" + spec.cluster() + "." + spec.replica(), workers);
        this.tracker = new PeekTracker(spec.cluster(), spec.replica());
    }

    /** A replica {@code default.r1} with {@code workers} workers, solo or two-runtime. */
    public static ReplicaSpec defaultSpec(int workers, boolean interactiveRuntime) {
        return new ReplicaSpec("default", "r1", "u1", workers, interactiveRuntime,
                new SystemParameters().snapshot());
    }

    public int workers() { return workers; }

    public ReplicaSpec spec() { return spec; }

    /** Whether this replica has a maintenance and an interactive runtime (else one solo runtime). */
    public boolean twoRuntimes() { return spec.interactiveRuntime(); }

    OffloadPool offloadPool() { return offload; }

    PeekTracker tracker() { return tracker; }

    // ---------------------------------------------------------------- serving reads (session threads)

    /**
     * Places {@code request} ({@link ComputeRuntime#place}) and starts it: on a solo
     * replica, and for peek dataflows on a two-runtime replica with {@code
     * enable_compute_interactive_dataflows} off, queued in the maintenance runtime's worker
     * loop ({@link MaintenanceRuntime#serve}); every other read on the {@link
     * InteractiveRuntime}, which runs its inline part on this (the session's) thread. The
     * parameters are the request's (read at each read).
     */
    @Override
    public <R> PeekHandle<R> serve(PeekRequest<R> request) {
        ComputeRuntime where = placement(request.kind(), request.params()).orElseThrow();
        PeekTask<R> task = new PeekTask<>(tracker.nextId(), request, where, this);
        tracker.started(task);
        switch (where) {
            case INTERACTIVE -> interactive.orElseThrow().serve(task);
            case SOLO, MAINTENANCE -> maintenance.serve(task);
        }
        return task;
    }

    @Override
    public Optional<ComputeRuntime> placement(PeekKind kind, ParameterSnapshot params) {
        return Optional.of(ComputeRuntime.place(kind, spec.interactiveRuntime(),
                params.get(Params.ENABLE_COMPUTE_INTERACTIVE_DATAFLOWS)));
    }

    /**
     * Read holds open on export {@code exportId}'s arrangement (all workers' parts and
     * error parts): what pinned snapshots keep from compaction. 0 for an unknown export.
     */
    public int readHolds(long exportId) {
        ExportReader r = exports.get(exportId);
        if (r == null) return 0;
        int n = 0;
        for (int w = 0; w < r.trace().workers(); w++) {
            n += r.trace().part(w).holdCount() + r.trace().errorPart(w).holdCount();
        }
        return n;
    }

    /** Walks running on the offload pool, and walks parked waiting for a slot (introspection, tests). */
    public int offloadRunning() { return offload.running(); }

    public int offloadParked() { return offload.parkedCount(); }

    @Override
    public Optional<ReplicaIntrospection> introspection() {
        return Optional.of(new ReplicaIntrospection() {
            public String cluster() { return spec.cluster(); }
            public String replica() { return spec.replica(); }
            public String replicaId() { return spec.replicaId(); }
            public boolean twoRuntimes() { return spec.interactiveRuntime(); }
            public List<ArrangementSize> arrangementSizes() { return ComputeReplica.this.arrangementSizes(); }
            public List<Frontier> frontiers() {
                List<Frontier> out = new ArrayList<>();
                for (ExportInfo e : exports()) out.add(new Frontier(e.exportId(), e.upper()));
                out.sort(Comparator.comparingLong(Frontier::exportId));
                return out;
            }
            public List<ActivePeek> activePeeks() { return tracker.active(); }
            public List<PeekRecord> peekHistory() { return tracker.history(); }
            public List<DurationBucket> peekDurations() { return tracker.histogram(); }
        });
    }

    /** Per-update and per-batch byte costs of the size estimate (object headers, arrays, row references). */
    private static final long BYTES_PER_UPDATE = 48;
    private static final long BYTES_PER_BATCH = 256;

    private List<ReplicaIntrospection.ArrangementSize> arrangementSizes() {
        Map<Long, ReplicaIntrospection.ArrangementSize> byDataflow = new TreeMap<>();
        for (ExportReader r : exports.values()) {
            ExportTrace t = r.trace();
            if (byDataflow.containsKey(t.dataflowId())) continue;
            long updates = t.updateCount();
            long batches = t.batchCount();
            byDataflow.put(t.dataflowId(), new ReplicaIntrospection.ArrangementSize(t.dataflowId(), t.name(), updates,
                    batches, updates * BYTES_PER_UPDATE + batches * BYTES_PER_BATCH));
        }
        return new ArrayList<>(byDataflow.values());
    }

    // ---------------------------------------------------------------- commands (coordinator)

    @Override
    public synchronized void createDataflow(DataflowSpec spec, InputSnapshot inputs) {
        boolean handedOver = false;
        try {
            if (closed) throw new SqlException(SqlState.INTERNAL_ERROR, "internal error: the compute replica is closed");
            if (exports.containsKey(spec.exportId())) {
                throw new IllegalArgumentException("export " + spec.exportId() + " already exists");
            }
            List<Expr> key = switch (spec.export()) {
                case DataflowSpec.Export.Index ix -> ix.key();
                case DataflowSpec.Export.MaterializedView mv -> null;
            };
            if (key != null) {
                Optional<ExportTrace> same = liveTrace(spec.collectionId(), key);
                if (same.isPresent()) { // a re-export: share the arrangement
                    ExportTrace t = same.get();
                    t.refs++;
                    exports.put(spec.exportId(), new ExportReader(spec.exportId(), t));
                    return;
                }
            }
            EvalContext ctx = EvalContext.defaults();
            // Built once here, on the caller's thread, so an unsupported plan fails the DDL
            // instead of a worker; the workers build their own copies later.
            new DataflowBuilder(ctx, Cancellation.NONE).build(spec.plan());

            Set<Long> sources = PlanInputs.objectIds(spec.plan());
            Set<Long> tables = new HashSet<>();
            Map<Long, ExportTrace> imports = new HashMap<>();
            for (long id : sources) {
                boolean isTable = inputs.tableIds() != null ? inputs.tableIds().contains(id) : liveTrace(id).isEmpty();
                if (isTable) {
                    tables.add(id);
                } else {
                    ExportTrace up = liveTrace(id).orElseThrow(() -> new SqlException(SqlState.INTERNAL_ERROR,
                            "internal error: \"" + spec.name() + "\" reads collection " + id
                                    + ", which is neither a table nor held by an index or materialized view"));
                    imports.put(id, up);
                }
            }
            List<Expr> columns = new ArrayList<>();
            List<SqlType> types = spec.plan().types();
            for (int i = 0; i < types.size(); i++) columns.add(new Expr.Column(i, types.get(i)));
            ExportTrace trace = new ExportTrace(spec.exportId(), spec.name(), spec.collectionId(), key,
                    key == null ? columns : key, workers, inputs.asOf());
            MaintainedDataflow m = new MaintainedDataflow(spec.exportId(), spec, inputs, tables, imports, trace,
                    workers, ctx);
            trace.refs = 1;
            for (ExportTrace up : imports.values()) up.refs++;
            dataflows.put(m.id, m);
            exports.put(spec.exportId(), new ExportReader(spec.exportId(), trace));
            maintenance.broadcast(new Command.Create(m));
            handedOver = true;
        } finally {
            if (!handedOver) inputs.close();
        }
    }

    @Override
    public synchronized void dropDataflow(long exportId) {
        ExportReader r = exports.remove(exportId);
        if (r == null) return;
        r.markDropped();
        release(r.trace());
    }

    private void release(ExportTrace t) {
        if (--t.refs > 0) return;
        t.retired = true;
        MaintainedDataflow m = dataflows.remove(t.dataflowId());
        if (m == null) return;
        maintenance.broadcast(new Command.Teardown(m));
        t.fail(new SqlException(SqlState.UNDEFINED_OBJECT, "\"" + t.name() + "\" was dropped"));
        for (ExportTrace up : m.imports.values()) release(up);
    }

    @Override
    public synchronized void inputChanges(long time, Map<Long, Changes> changes) {
        if (closed || dataflows.isEmpty()) return;
        maintenance.input(time, Map.copyOf(changes));
    }

    @Override
    public synchronized void advanceTo(long upper) {
        if (closed || dataflows.isEmpty()) return;
        maintenance.broadcast(new Command.Advance(upper));
    }

    @Override
    public MaintenanceBacklog.Status backlog() { return maintenance.backlog().now(System.nanoTime()); }

    @Override
    public void onMaintenanceProgress(Runnable listener) { maintenance.backlog().onProgress(listener); }

    /** A live (not dropped, not failed) trace holding {@code collectionId}. Under the monitor. */
    private Optional<ExportTrace> liveTrace(long collectionId) {
        for (MaintainedDataflow m : dataflows.values()) {
            ExportTrace t = m.trace;
            if (t.collectionId() == collectionId && !t.retired && !t.failed()) return Optional.of(t);
        }
        return Optional.empty();
    }

    private Optional<ExportTrace> liveTrace(long collectionId, List<Expr> key) {
        for (MaintainedDataflow m : dataflows.values()) {
            ExportTrace t = m.trace;
            if (t.collectionId() == collectionId && key.equals(t.key()) && !t.retired && !t.failed()) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- reads (any thread)

    @Override
    public List<CollectionReader> readers(long collectionId) {
        List<CollectionReader> out = new ArrayList<>();
        for (ExportReader r : exports.values()) if (r.collectionId() == collectionId) out.add(r);
        return out;
    }

    @Override
    public Optional<CollectionReader> reader(long exportId) {
        return Optional.ofNullable(exports.get(exportId));
    }

    /**
     * Introspection: one record per live export, in no particular order. Cheap (counters
     * and published snapshots, no locks held while reading them); any thread.
     */
    public List<ExportInfo> exports() {
        List<ExportInfo> out = new ArrayList<>();
        for (ExportReader r : exports.values()) {
            ExportTrace t = r.trace();
            out.add(new ExportInfo(r.exportId(), t.name(), t.collectionId(), t.dataflowId(), t.updateCount(),
                    t.batchCount(), t.upper(), t.hydrated(), t.failed(), t.hydrationSteps.get(), t.steps.get()));
        }
        return out;
    }

    /** Introspection of one export, if it exists. */
    public Optional<ExportInfo> export(long exportId) {
        return exports().stream().filter(i -> i.exportId() == exportId).findFirst();
    }

    @Override
    public void close() {
        List<MaintainedDataflow> all;
        synchronized (this) {
            if (closed) return;
            closed = true;
            all = new ArrayList<>(dataflows.values());
            SqlException closing = new SqlException(SqlState.ADMIN_SHUTDOWN, "terminating connection due to administrator command");
            for (MaintainedDataflow m : all) m.abort(closing);
        }
        maintenance.close();
        offload.close();
        for (MaintainedDataflow m : all) m.closeInputs();
    }
}
