package io.stillwater.engine.catalog;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.table.Table;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The built-in relations ({@code mz_catalog.*}, {@code mz_internal.*}, and the per-replica
 * {@code mz_introspection.*}, whose rows come from the replica serving the read): virtual tables
 * with fixed ids below {@link Catalog#FIRST_USER_ID}, whose rows are computed from the
 * catalog and the replica's state when a read needs them. A plan reads one as a
 * {@code PlanNode.Get} of its id; the read path asks {@link #contents} for its rows.
 *
 * <p>Ids in the rows follow Materialize's string style: user objects are {@code 'u'}
 * plus the catalog id ({@code u1001}), built-in relations {@code 's'} plus theirs, and
 * clusters and replicas have their own {@code u1}, {@code u2}, ... ({@link Clusters}).
 * Columns are the subset of Materialize's that Stillwater has, with the same names and
 * order; {@code mz_cluster_replicas.interactive_runtime} is Stillwater's own (whether
 * the replica was provisioned with a maintenance and an interactive runtime).
 */
public final class SystemRelations {
    private SystemRelations() {}

    /** The schema and definition of one built-in relation. */
    public record Builtin(String schema, TableDef def) {
        public long id() { return def.id(); }

        public String name() { return def.name(); }
    }

    /** The cluster created at first start, and sessions' default {@code cluster}. */
    public static final String DEFAULT_CLUSTER = "default";
    public static final String DEFAULT_CLUSTER_ID = "u1";

    public static final long MZ_TABLES = 1;
    public static final long MZ_VIEWS = 2;
    public static final long MZ_MATERIALIZED_VIEWS = 3;
    public static final long MZ_INDEXES = 4;
    public static final long MZ_COLUMNS = 5;
    public static final long MZ_CLUSTERS = 6;
    public static final long MZ_WALLCLOCK_GLOBAL_LAG = 7;
    public static final long MZ_HYDRATION_STATUSES = 8;
    /** Numbered apart from the others so that ids added meanwhile elsewhere do not collide. */
    public static final long MZ_CLUSTER_REPLICAS = 40;
    /** The engine process's memory (one row), for the feature benchmark's memory metrics. */
    public static final long MZ_PROCESS_MEMORY = 41;
    /** Write backpressure per replica (the coordinator's admission, see docs/operations.md). */
    public static final long MZ_WRITE_BACKPRESSURE = 45;

    // Per-replica introspection (issue 5), computed from the replica that serves the read.
    // Ids kept apart from the catalog relations' so both lists can grow.
    public static final long MZ_DATAFLOW_ARRANGEMENT_SIZES = 50;
    public static final long MZ_COMPUTE_FRONTIERS = 51;
    public static final long MZ_ACTIVE_PEEKS = 52;
    public static final long MZ_PEEK_DURATIONS_HISTOGRAM = 53;
    public static final long MZ_PEEK_HISTORY = 54;
    public static final String INTROSPECTION_SCHEMA = "mz_introspection";

    private static final List<Builtin> ALL = List.of(
            builtin("mz_catalog", MZ_TABLES, "mz_tables", "id", SqlType.TEXT, "name", SqlType.TEXT),
            builtin("mz_catalog", MZ_VIEWS, "mz_views", "id", SqlType.TEXT, "name", SqlType.TEXT,
                    "definition", SqlType.TEXT),
            builtin("mz_catalog", MZ_MATERIALIZED_VIEWS, "mz_materialized_views", "id", SqlType.TEXT,
                    "name", SqlType.TEXT, "cluster_id", SqlType.TEXT, "definition", SqlType.TEXT),
            builtin("mz_catalog", MZ_INDEXES, "mz_indexes", "id", SqlType.TEXT, "name", SqlType.TEXT,
                    "on_id", SqlType.TEXT, "cluster_id", SqlType.TEXT),
            builtin("mz_catalog", MZ_COLUMNS, "mz_columns", "id", SqlType.TEXT, "name", SqlType.TEXT,
                    "position", SqlType.BIGINT, "nullable", SqlType.BOOLEAN, "type", SqlType.TEXT),
            builtin("mz_catalog", MZ_CLUSTERS, "mz_clusters", "id", SqlType.TEXT, "name", SqlType.TEXT,
                    "managed", SqlType.BOOLEAN, "size", SqlType.TEXT, "replication_factor", SqlType.BIGINT),
            builtin("mz_catalog", MZ_CLUSTER_REPLICAS, "mz_cluster_replicas", "id", SqlType.TEXT, "name", SqlType.TEXT,
                    "cluster_id", SqlType.TEXT, "size", SqlType.TEXT, "interactive_runtime", SqlType.BOOLEAN),
            builtin("mz_internal", MZ_WALLCLOCK_GLOBAL_LAG, "mz_wallclock_global_lag", "object_id", SqlType.TEXT,
                    "lag", SqlType.INTERVAL),
            builtin("mz_internal", MZ_HYDRATION_STATUSES, "mz_hydration_statuses", "object_id", SqlType.TEXT,
                    "hydrated", SqlType.BOOLEAN),
            builtin("mz_internal", MZ_PROCESS_MEMORY, "mz_process_memory", "heap_used_bytes", SqlType.BIGINT,
                    "heap_after_gc_bytes", SqlType.BIGINT, "heap_committed_bytes", SqlType.BIGINT,
                    "heap_max_bytes", SqlType.BIGINT, "rss_bytes", SqlType.BIGINT),
            builtin("mz_internal", MZ_WRITE_BACKPRESSURE, "mz_write_backpressure", "cluster", SqlType.TEXT,
                    "replica", SqlType.TEXT, "replica_id", SqlType.TEXT, "backlog_ms", SqlType.BIGINT,
                    "oldest_write_ms", SqlType.BIGINT, "queued_writes", SqlType.BIGINT, "write_cost_us", SqlType.BIGINT,
                    "peak_lag_ms", SqlType.BIGINT,
                    "max_maintenance_lag_ms", SqlType.BIGINT,
                    "waiting_writes", SqlType.BIGINT, "admitted_after_wait", SqlType.BIGINT,
                    "waited_ms", SqlType.BIGINT),
            builtin(INTROSPECTION_SCHEMA, MZ_DATAFLOW_ARRANGEMENT_SIZES, "mz_dataflow_arrangement_sizes",
                    "id", SqlType.TEXT, "name", SqlType.TEXT, "records", SqlType.BIGINT, "batches", SqlType.BIGINT,
                    "size", SqlType.BIGINT),
            builtin(INTROSPECTION_SCHEMA, MZ_COMPUTE_FRONTIERS, "mz_compute_frontiers", "export_id", SqlType.TEXT,
                    "time", SqlType.BIGINT),
            builtin(INTROSPECTION_SCHEMA, MZ_ACTIVE_PEEKS, "mz_active_peeks", "id", SqlType.BIGINT,
                    "index_id", SqlType.TEXT, "time", SqlType.BIGINT, "runtime", SqlType.TEXT, "type", SqlType.TEXT,
                    "state", SqlType.TEXT, "statement", SqlType.TEXT),
            builtin(INTROSPECTION_SCHEMA, MZ_PEEK_DURATIONS_HISTOGRAM, "mz_peek_durations_histogram",
                    "type", SqlType.TEXT, "duration_ns", SqlType.BIGINT, "count", SqlType.BIGINT),
            builtin(INTROSPECTION_SCHEMA, MZ_PEEK_HISTORY, "mz_peek_history", "id", SqlType.BIGINT,
                    "statement", SqlType.TEXT, "cluster", SqlType.TEXT, "replica", SqlType.TEXT,
                    "runtime", SqlType.TEXT, "type", SqlType.TEXT, "fast_path", SqlType.BOOLEAN,
                    "offloaded", SqlType.BOOLEAN, "duration_ms", SqlType.DOUBLE, "outcome", SqlType.TEXT,
                    "finished_at", SqlType.TIMESTAMPTZ));

    private static Builtin builtin(String schema, long id, String name, Object... columns) {
        List<ColumnDef> cols = new ArrayList<>();
        for (int i = 0; i < columns.length; i += 2) {
            cols.add(new ColumnDef((String) columns[i], (SqlType) columns[i + 1], false, null));
        }
        return new Builtin(schema, new TableDef(id, name, cols));
    }

    /** Whether {@code id} names a built-in relation rather than a user object. */
    public static boolean isSystem(long id) { return id < Catalog.FIRST_USER_ID; }

    /** Every built-in relation, in id order. */
    public static List<Builtin> all() { return ALL; }

    /** The built-in relation {@code schema.name}, if there is one. */
    public static Optional<Builtin> lookup(String schema, String name) {
        return ALL.stream().filter(b -> b.schema().equals(schema) && b.name().equals(name)).findFirst();
    }

    /** The schemas that hold built-in relations. */
    public static List<String> schemas() { return List.of("mz_catalog", "mz_internal", INTROSPECTION_SCHEMA); }

    /** Whether {@code id} is a per-replica {@code mz_introspection} relation (read from the serving replica). */
    public static boolean isIntrospection(long id) {
        return id >= MZ_DATAFLOW_ARRANGEMENT_SIZES && id <= MZ_PEEK_HISTORY;
    }

    /**
     * The rows of built-in relation {@code id} now; {@code mz_introspection} relations
     * come from {@code replica}, the replica serving the read (empty when it keeps no
     * introspection).
     */
    public static Changes contents(long id, Catalog catalog, Coordinator coordinator,
                                   io.stillwater.engine.compute.ComputeController replica) {
        if (!isIntrospection(id)) return contents(id, catalog, coordinator);
        Changes out = new Changes();
        var intro = replica.introspection();
        if (intro.isEmpty()) return out;
        var r = intro.get();
        if (id == MZ_DATAFLOW_ARRANGEMENT_SIZES) {
            for (var a : r.arrangementSizes()) {
                out.add(Row.of(objectId(a.dataflowId()), a.name(), a.records(), a.batches(), a.size()), 1);
            }
        } else if (id == MZ_COMPUTE_FRONTIERS) {
            for (var f : r.frontiers()) {
                out.add(Row.of(objectId(f.exportId()), f.time() == Long.MIN_VALUE ? null : f.time()), 1);
            }
        } else if (id == MZ_ACTIVE_PEEKS) {
            for (var p : r.activePeeks()) {
                out.add(Row.of(p.id(), p.indexId() < 0 ? null : objectId(p.indexId()), p.time(), p.runtime().label(),
                        p.kind().label(), p.state(), p.statement()), 1);
            }
        } else if (id == MZ_PEEK_DURATIONS_HISTOGRAM) {
            for (var b : r.peekDurations()) out.add(Row.of(b.kind(), b.durationNs(), b.count()), 1);
        } else if (id == MZ_PEEK_HISTORY) {
            for (var h : r.peekHistory()) {
                out.add(Row.of(h.id(), h.statement(), h.cluster(), h.replica(), h.runtime().label(), h.kind().label(),
                        h.kind().fastPath(), h.offloaded(), h.durationMs(), h.outcome(), h.finishedAt()), 1);
            }
        }
        return out;
    }

    /** A user object's id as Materialize spells it in system relations: {@code u1001}. */
    public static String objectId(long id) { return (isSystem(id) ? "s" : "u") + id; }

    /**
     * The rows of built-in relation {@code id} now (positive diffs), computed from
     * {@code catalog} and the coordinator's tables and compute frontiers. Reading them
     * never waits: they are always complete.
     */
    public static Changes contents(long id, Catalog catalog, Coordinator coordinator) {
        if (isIntrospection(id)) {
            return contents(id, catalog, coordinator,
                    coordinator == null ? io.stillwater.engine.compute.ComputeController.NONE : coordinator.compute());
        }
        Changes out = new Changes();
        if (id == MZ_TABLES) {
            for (TableDef t : catalog.tables()) out.add(Row.of(objectId(t.id()), t.name()), 1);
        } else if (id == MZ_VIEWS) {
            for (ViewDef v : catalog.views()) out.add(Row.of(objectId(v.id()), v.name(), v.definition()), 1);
        } else if (id == MZ_MATERIALIZED_VIEWS) {
            for (MaterializedViewDef m : catalog.materializedViews()) {
                out.add(Row.of(objectId(m.id()), m.name(), clusterId(coordinator, m.cluster()), m.definition()), 1);
            }
        } else if (id == MZ_INDEXES) {
            for (IndexDef i : catalog.indexes()) {
                out.add(Row.of(objectId(i.id()), i.name(), objectId(i.onId()), clusterId(coordinator, i.cluster())), 1);
            }
        } else if (id == MZ_COLUMNS) {
            for (TableDef t : catalog.tables()) {
                for (int c = 0; c < t.columns().size(); c++) {
                    ColumnDef col = t.columns().get(c);
                    out.add(Row.of(objectId(t.id()), col.name(), (long) c + 1, !col.notNull(), col.type().displayName()), 1);
                }
            }
            for (ViewDef v : catalog.views()) columns(out, v.id(), v.columnNames(), v.columnTypes());
            for (MaterializedViewDef m : catalog.materializedViews()) columns(out, m.id(), m.columnNames(), m.columnTypes());
        } else if (id == MZ_CLUSTERS) {
            for (ClusterDef c : coordinator.clusters().all()) {
                out.add(Row.of(c.id(), c.name(), c.managed(), c.managed() ? c.size().text() : null,
                        c.managed() ? (Object) (long) c.replicationFactor() : null), 1);
            }
        } else if (id == MZ_CLUSTER_REPLICAS) {
            for (ClusterDef c : coordinator.clusters().all()) {
                for (ReplicaDef r : c.replicas()) {
                    out.add(Row.of(r.id(), r.name(), c.id(), r.size().text(), r.interactiveRuntime()), 1);
                }
            }
        } else if (id == MZ_WALLCLOCK_GLOBAL_LAG) {
            long now = System.currentTimeMillis();
            for (TableDef t : catalog.tables()) {
                Optional<Table> table = coordinator.table(t.id());
                out.add(Row.of(objectId(t.id()), table.map(x -> lag(now, x.upper())).orElse(null)), 1);
            }
            for (long e : exports(catalog)) {
                Long upper = exportUpper(coordinator, e);
                out.add(Row.of(objectId(e), upper == null ? null : lag(now, upper)), 1);
            }
        } else if (id == MZ_HYDRATION_STATUSES) {
            for (long e : exports(catalog)) out.add(Row.of(objectId(e), exportUpper(coordinator, e) != null), 1);
        } else if (id == MZ_PROCESS_MEMORY) {
            out.add(processMemory(), 1);
        } else if (id == MZ_WRITE_BACKPRESSURE) {
            for (var b : coordinator.writeBackpressure()) {
                out.add(Row.of(b.cluster(), b.replica(), b.replicaId(), b.backlogMs(), b.oldestWriteMs(), b.queuedWrites(),
                        b.writeCostUs(), b.peakLagMs(), b.boundMs(),
                        b.waitingWrites(), b.admittedAfterWait(), b.waitedMs()), 1);
            }
        } else {
            throw new IllegalArgumentException("unknown built-in relation id " + id);
        }
        return out;
    }

    /**
     * The one row of {@code mz_internal.mz_process_memory}. Used and committed come from one
     * snapshot, so {@code heap_used_bytes <= heap_committed_bytes <= heap_max_bytes} always holds
     * ({@code heap_max_bytes} NULL when the JVM has no limit). {@code heap_after_gc_bytes} sums the
     * heap pools' usage right after their most recent collection (0 before the first one): what a
     * benchmark compares after asking the process to collect. {@code rss_bytes} is VmRSS from
     * {@code /proc/self/status}, NULL where that is unreadable (not Linux).
     */
    static Row processMemory() {
        java.lang.management.MemoryUsage heap = java.lang.management.ManagementFactory.getMemoryMXBean()
                .getHeapMemoryUsage();
        long afterGc = 0;
        for (var pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.isValid()) {
                java.lang.management.MemoryUsage u = pool.getCollectionUsage();
                if (u != null) afterGc += u.getUsed();
            }
        }
        Long max = heap.getMax() < 0 ? null : heap.getMax();
        return Row.of(heap.getUsed(), afterGc, heap.getCommitted(), max, residentSetBytes());
    }

    /** VmRSS of this process in bytes, or null when /proc/self/status cannot be read. */
    private static Long residentSetBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    long v = Long.parseLong(f[0]);
                    return f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux, or no procfs: the column is NULL
        }
        return null;
    }

    private static void columns(Changes out, long id, List<String> names, List<SqlType> types) {
        for (int c = 0; c < names.size(); c++) {
            out.add(Row.of(objectId(id), names.get(c), (long) c + 1, true, types.get(c).displayName()), 1);
        }
    }

    private static String clusterId(Coordinator coordinator, String cluster) {
        return coordinator.clusters().byName(cluster).map(ClusterDef::id).orElse(null);
    }

    /** The ids of every index and materialized view, in id order. */
    private static List<Long> exports(Catalog catalog) {
        List<Long> ids = new ArrayList<>();
        catalog.indexes().forEach(i -> ids.add(i.id()));
        catalog.materializedViews().forEach(m -> ids.add(m.id()));
        ids.sort(null);
        return ids;
    }

    /** The export's upper once hydrated; null while it is not (or has no dataflow). */
    private static Long exportUpper(Coordinator coordinator, long exportId) {
        Optional<CollectionReader> r = coordinator.exportReader(exportId);
        if (r.isEmpty() || r.get().upper() == Long.MIN_VALUE) return null;
        return r.get().upper();
    }

    /**
     * Freshness lag as Materialize's {@code mz_wallclock_global_lag} reports it: how far
     * the collection's completed time ({@code upper - 1}) trails the wall clock, never
     * negative, at millisecond resolution (times are ms since the epoch).
     */
    static Interval lag(long nowMs, long upper) {
        long lagMs = Math.max(0, nowMs - (upper - 1));
        return new Interval(0, 0, lagMs * 1000);
    }
}
