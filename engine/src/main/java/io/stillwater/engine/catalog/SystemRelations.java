package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schema of the built-in relations ({@code mz_catalog.*}, {@code mz_internal.*}, and the
 * per-replica {@code mz_introspection.*}): virtual tables with fixed ids below {@link
 * Catalog#FIRST_USER_ID}. Only their names, ids and columns live here (the catalog is pure
 * schema); their rows are computed when a read needs them, from the catalog and the running
 * state, by {@code coord.SystemRelationRows}. A plan reads one as a {@code PlanNode.Get} of its id.
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
    /** The roles (Materialize's columns; {@code id} is {@code s<oid>} for superusers, else {@code u<oid>}). */
    public static final long MZ_ROLES = 48;

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
            builtin("mz_catalog", MZ_ROLES, "mz_roles", "id", SqlType.TEXT, "oid", SqlType.BIGINT, "name", SqlType.TEXT,
                    "inherit", SqlType.BOOLEAN),
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

    /** Every built-in relation: Materialize's, then PostgreSQL's catalog ({@link PgCatalog}). */
    private static final List<Builtin> ALL_WITH_PG = concat(ALL, PgCatalog.relations());

    private static List<Builtin> concat(List<Builtin> a, List<Builtin> b) {
        List<Builtin> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    /** Every built-in relation. */
    public static List<Builtin> all() { return ALL_WITH_PG; }

    /** The built-in relation {@code schema.name}, if there is one. */
    public static Optional<Builtin> lookup(String schema, String name) {
        return ALL_WITH_PG.stream().filter(b -> b.schema().equals(schema) && b.name().equals(name)).findFirst();
    }

    /** The schemas that hold built-in relations. */
    public static List<String> schemas() {
        return List.of("mz_catalog", "mz_internal", INTROSPECTION_SCHEMA, PgCatalog.PG_CATALOG, PgCatalog.INFORMATION_SCHEMA);
    }

    /** Whether {@code id} is a per-replica {@code mz_introspection} relation (read from the serving replica). */
    public static boolean isIntrospection(long id) {
        return id >= MZ_DATAFLOW_ARRANGEMENT_SIZES && id <= MZ_PEEK_HISTORY;
    }

    /** A user object's id as Materialize spells it in system relations: {@code u1001}. */
    public static String objectId(long id) { return (isSystem(id) ? "s" : "u") + id; }
}
