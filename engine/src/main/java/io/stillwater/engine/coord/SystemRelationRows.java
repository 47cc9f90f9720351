package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.PgCatalogRows;
import io.stillwater.engine.catalog.RoleDef;
import io.stillwater.engine.catalog.RoleRows;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReads;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.table.Table;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.stillwater.engine.catalog.SystemRelations.*;

/**
 * The rows of the built-in relations ({@link io.stillwater.engine.catalog.SystemRelations}
 * holds their schema): computed when a read needs them, from the catalog, the clusters, the
 * tables' frontiers, write backpressure and, for {@code mz_introspection}, the replica
 * serving the read. Reading them never waits: they are always complete.
 *
 * <p>Ids in the rows follow Materialize's string style: user objects are {@code 'u'}
 * plus the catalog id ({@code u1001}), built-in relations {@code 's'} plus theirs, and
 * clusters and replicas have their own {@code u1}, {@code u2}, ... ({@link
 * io.stillwater.engine.catalog.Clusters}). Columns are the subset of Materialize's that
 * Stillwater has, with the same names and order; {@code
 * mz_cluster_replicas.interactive_runtime} is Stillwater's own (whether the replica was
 * provisioned with a maintenance and an interactive runtime).
 */
public final class SystemRelationRows {
    private final AppliedState state;
    private final ServingReplicas serving;
    private final Replicas replicas;
    private final WriteAdmission admission;

    SystemRelationRows(AppliedState state, ServingReplicas serving, Replicas replicas, WriteAdmission admission) {
        this.state = state;
        this.serving = serving;
        this.replicas = replicas;
        this.admission = admission;
    }

    /** Write backpressure now, per running replica (the rows of {@code mz_write_backpressure}). */
    public List<WriteBackpressure> writeBackpressure() {
        return WriteBackpressure.now(replicas, admission, state.systemParameters().get(Params.MAX_MAINTENANCE_LAG).toMillis());
    }

    /**
     * The rows of built-in relation {@code id} now; {@code mz_introspection} relations
     * come from {@code replica}, the replica serving the read (empty when it keeps no
     * introspection).
     */
    public Changes rows(long id, ComputeReads replica) {
        if (!isIntrospection(id)) return rows(id);
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

    /**
     * The rows of built-in relation {@code id} now (positive diffs), computed from
     * the catalog, the clusters, the tables and the replicas. Reading them
     * never waits: they are always complete.
     */
    public Changes rows(long id) {
        if (isIntrospection(id)) return rows(id, serving.defaultReplica());
        Catalog catalog = state.catalog();
        Changes out = new Changes();
        if (PgCatalogRows.handles(id)) {
            var roleRows = RoleRows.rows(id, state.security());
            for (Row row : roleRows.isPresent() ? roleRows.get() : PgCatalogRows.rows(id, catalog, state.security())) out.add(row, 1);
            return out;
        }
        if (id == MZ_TABLES) {
            for (TableDef t : catalog.tables()) out.add(Row.of(objectId(t.id()), t.name()), 1);
        } else if (id == MZ_VIEWS) {
            for (ViewDef v : catalog.views()) out.add(Row.of(objectId(v.id()), v.name(), v.definition()), 1);
        } else if (id == MZ_MATERIALIZED_VIEWS) {
            for (MaterializedViewDef m : catalog.materializedViews()) {
                out.add(Row.of(objectId(m.id()), m.name(), clusterId(m.cluster()), m.definition()), 1);
            }
        } else if (id == MZ_INDEXES) {
            for (IndexDef i : catalog.indexes()) {
                out.add(Row.of(objectId(i.id()), i.name(), objectId(i.onId()), clusterId(i.cluster())), 1);
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
        } else if (id == SystemRelations.MZ_ROLES) {
            for (RoleDef r : state.security().allRoles()) out.add(Row.of((r.superuser() ? "s" : "u") + r.oid(), r.oid(), r.name(), r.inherit()), 1);
        } else if (id == MZ_CLUSTERS) {
            for (ClusterDef c : state.clusters().all()) {
                out.add(Row.of(c.id(), c.name(), c.managed(), c.managed() ? c.size().text() : null,
                        c.managed() ? (Object) (long) c.replicationFactor() : null), 1);
            }
        } else if (id == MZ_CLUSTER_REPLICAS) {
            for (ClusterDef c : state.clusters().all()) {
                for (ReplicaDef r : c.replicas()) {
                    out.add(Row.of(r.id(), r.name(), c.id(), r.size().text(), r.interactiveRuntime()), 1);
                }
            }
        } else if (id == MZ_WALLCLOCK_GLOBAL_LAG) {
            long now = System.currentTimeMillis();
            for (TableDef t : catalog.tables()) {
                Optional<Table> table = state.table(t.id());
                out.add(Row.of(objectId(t.id()), table.map(x -> lag(now, x.upper())).orElse(null)), 1);
            }
            for (long e : exports(catalog)) {
                Long upper = exportUpper(e);
                out.add(Row.of(objectId(e), upper == null ? null : lag(now, upper)), 1);
            }
        } else if (id == MZ_HYDRATION_STATUSES) {
            for (long e : exports(catalog)) out.add(Row.of(objectId(e), exportUpper(e) != null), 1);
        } else if (id == MZ_PROCESS_MEMORY) {
            out.add(processMemory(), 1);
        } else if (id == MZ_WRITE_BACKPRESSURE) {
            for (var b : writeBackpressure()) {
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
        MemoryUsage heap = ManagementFactory.getMemoryMXBean()
                .getHeapMemoryUsage();
        long afterGc = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                MemoryUsage u = pool.getCollectionUsage();
                if (u != null) afterGc += u.getUsed();
            }
        }
        Long max = heap.getMax() < 0 ? null : heap.getMax();
        return Row.of(heap.getUsed(), afterGc, heap.getCommitted(), max, residentSetBytes());
    }

    /** VmRSS of this process in bytes, or null when /proc/self/status cannot be read. */
    private static Long residentSetBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    long v = Long.parseLong(f[0]);
                    return f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: the column is NULL
        }
        return null;
    }

    private static void columns(Changes out, long id, List<String> names, List<SqlType> types) {
        for (int c = 0; c < names.size(); c++) {
            out.add(Row.of(objectId(id), names.get(c), (long) c + 1, true, types.get(c).displayName()), 1);
        }
    }

    private String clusterId(String cluster) {
        return state.clusters().byName(cluster).map(ClusterDef::id).orElse(null);
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
    private Long exportUpper(long exportId) {
        Optional<CollectionReader> r = serving.exportReader(exportId);
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
