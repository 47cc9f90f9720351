package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.TableCodec;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.IndexCodec;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewCodec;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewCodec;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.catalog.ViewRules;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameterCodec;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.storage.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * DDL sequencing: CREATE and DROP of tables, views, indexes and materialized views (DROP
 * with CASCADE), DROP CLUSTER (which cascades through what is on the cluster), and ALTER
 * SYSTEM. Each statement validates against the catalog and logs its records inside one
 * {@link WritePipeline#sequenced} call: the write lock is held with nothing pending, so
 * the catalog it validated against is the one its records apply to. Planning (a view's
 * query, an index's or materialized view's dataflow) happens before the lock, against the
 * catalog then, and is redone under it only if a DDL changed the catalog meanwhile
 * ({@link PlannedBeforeLock}): writes do not wait for Calcite. Indexes and
 * materialized views are hydrated ({@link Hydration}) before their catalog entry is
 * logged. Runs on session threads; the caller checks roles and transaction state.
 */
public final class CatalogSequencer {
    private final WritePipeline pipeline;
    private final AppliedState state;
    private final ClusterControl clusters;
    private final Hydration hydration;
    /** Plans index and materialized view dataflows; built on first use (Calcite set-up is not free). */
    private final Supplier<DataflowPlanner> planner;

    CatalogSequencer(WritePipeline pipeline, AppliedState state, ClusterControl clusters, Hydration hydration,
                     Supplier<DataflowPlanner> planner) {
        this.pipeline = pipeline;
        this.state = state;
        this.clusters = clusters;
        this.hydration = hydration;
        this.planner = planner;
    }

    /** Builds a view's definition against the catalog current under the write lock, with its id. */
    public interface ViewBuilder {
        ViewDef build(Catalog catalog, long id);
    }

    /** CREATE TABLE. Returns empty if the name exists and {@code ifNotExists}. */
    public Optional<TableDef> createTable(String name, List<ColumnDef> columns, boolean ifNotExists) {
        return createTable(name, columns, List.of(), ifNotExists);
    }

    /** CREATE TABLE with a declared primary key (0-based column positions, recorded and not enforced). */
    public Optional<TableDef> createTable(String name, List<ColumnDef> columns, List<Integer> primaryKey,
                                          boolean ifNotExists) {
        return pipeline.sequenced(() -> {
            Catalog catalog = state.catalog();
            if (catalog.relationExists(name)) {
                if (ifNotExists) return Optional.<TableDef>empty();
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            TableDef def = new TableDef(catalog.nextId(), name, columns, primaryKey);
            pipeline.submit(ts -> TableCodec.encode(def));
            return Optional.of(def);
        });
    }

    /**
     * CREATE [OR REPLACE] VIEW. {@code build} plans the view's query before the write lock
     * is taken, and again under it only if a DDL changed the catalog in between
     * ({@link PlannedBeforeLock}), so the view logged is planned on the catalog it applies to. Returns
     * empty if the name exists and {@code ifNotExists}. A replacement keeps the view's id
     * and must keep its columns ({@link ViewRules#checkReplacement}).
     */
    public Optional<ViewDef> createView(String name, boolean orReplace, boolean ifNotExists, ViewBuilder build) {
        Function<Catalog, ViewDef> planning = c -> build.build(c, c.view(name).map(ViewDef::id).orElse(c.nextId()));
        PlannedBeforeLock<ViewDef> early = PlannedBeforeLock.plan(state.catalog(), null, planning);
        return pipeline.sequenced(() -> {
            Catalog current = state.catalog();
            Optional<ViewDef> old = current.view(name);
            Optional<ObjectKind> existing = current.kindOf(name);
            if (existing.isPresent()) {
                if (ifNotExists) return Optional.<ViewDef>empty();
                if (old.isEmpty() && orReplace) throw ViewRules.wrongKind(name, ObjectKind.VIEW, existing.get());
                if (!orReplace) throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            if (old.isPresent()) ViewRules.checkReplaceable(current, name);
            ViewDef def = early.against(current, null, planning);
            old.ifPresent(o -> ViewRules.checkReplacement(o, def));
            ViewRules.checkNoCycle(current, def);
            byte[] payload = ViewCodec.encode(def);
            pipeline.submit(ts -> new LogRecord.CatalogEntry(ViewCodec.KIND, name, payload));
            return Optional.of(def);
        });
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
    public List<String> dropObjects(ObjectKind kind, List<String> names, boolean ifExists, boolean cascade) {
        return pipeline.sequenced(() -> {
            Catalog current = state.catalog();
            List<String> targets = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String n : names) {
                Optional<ObjectKind> actual = current.kindOf(n);
                if (actual.isPresent() && actual.get() == kind) {
                    if (!targets.contains(n)) targets.add(n);
                } else if (actual.isPresent()) {
                    throw ViewRules.wrongKind(n, kind, actual.get());
                } else if (ifExists) {
                    missing.add(n);
                } else {
                    throw new SqlException(kind == ObjectKind.INDEX ? SqlState.UNDEFINED_OBJECT : SqlState.UNDEFINED_TABLE,
                            kind.word() + " \"" + n + "\" does not exist");
                }
            }
            List<String> order = ViewRules.dropOrder(current, targets, cascade);
            for (String n : order) {
                long id = current.idOf(n);
                switch (current.kindOf(n).orElseThrow()) {
                    case TABLE -> pipeline.submit(ts -> new LogRecord.DropTable(id));
                    case VIEW -> pipeline.submit(ts -> new LogRecord.CatalogRemoval(ViewCodec.KIND, n));
                    case MATERIALIZED_VIEW -> {
                        pipeline.submit(ts -> new LogRecord.CatalogRemoval(MaterializedViewCodec.KIND, n));
                        hydration.uninstall(id);
                    }
                    case INDEX -> {
                        pipeline.submit(ts -> new LogRecord.CatalogRemoval(IndexCodec.KIND, n));
                        hydration.uninstall(id);
                    }
                }
            }
            return missing;
        });
    }

    /**
     * DROP CLUSTER c, ...: unknown names are 42704 unless {@code ifExists}. Without
     * {@code cascade} a cluster holding indexes or materialized views is 2BP01; with it
     * they (and what depends on them) are dropped first. Then the cluster's replicas stop.
     */
    public void dropClusters(List<String> names, boolean ifExists, boolean cascade) {
        pipeline.sequenced(() -> {
            List<ClusterDef> targets = new ArrayList<>();
            for (String n : names) {
                Optional<ClusterDef> c = state.clusters().byName(n);
                if (c.isPresent()) {
                    if (!targets.contains(c.get())) targets.add(c.get());
                } else if (!ifExists) {
                    throw Clusters.unknownCluster(n);
                }
            }
            for (ClusterDef c : targets) {
                List<String> dependents = objectsOn(state.catalog(), c.name());
                if (!dependents.isEmpty() && !cascade) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop cluster \"" + c.name() + "\" because other objects depend on it",
                            "depended upon by " + String.join(", ", dependents),
                            "Use DROP CLUSTER " + c.name() + " CASCADE to drop them too.");
                }
            }
            for (ClusterDef c : targets) {
                List<String> mvs = state.catalog().materializedViews().stream().filter(m -> m.cluster().equals(c.name()))
                        .map(MaterializedViewDef::name).toList();
                if (!mvs.isEmpty()) dropObjects(ObjectKind.MATERIALIZED_VIEW, mvs, true, true);
                List<String> indexes = state.catalog().indexes().stream().filter(i -> i.cluster().equals(c.name()))
                        .map(IndexDef::name).toList();
                if (!indexes.isEmpty()) dropObjects(ObjectKind.INDEX, indexes, true, true);
                clusters.removeCluster(c);
            }
        });
    }

    /** The indexes and materialized views on {@code cluster}, by name. */
    private static List<String> objectsOn(Catalog catalog, String cluster) {
        List<String> out = new ArrayList<>();
        catalog.indexes().stream().filter(i -> i.cluster().equals(cluster)).forEach(i -> out.add(i.name()));
        catalog.materializedViews().stream().filter(m -> m.cluster().equals(cluster)).forEach(m -> out.add(m.name()));
        out.sort(null);
        return out;
    }

    /**
     * CREATE [DEFAULT] INDEX on {@code IN CLUSTER}'s cluster, else {@code sessionCluster}
     * (42704 if it does not exist). Plans the key and the dataflow before the write lock
     * ({@link PlannedBeforeLock}); under it: resolves the object, takes that plan (or plans
     * again if the catalog changed; a planning error creates nothing), installs the dataflow,
     * then makes the catalog entry durable. Installing first means no reader ever plans
     * against an index whose arrangement compute does not know yet; if the log append
     * fails the dataflow is dropped again. Returns empty if the name exists and {@code
     * IF NOT EXISTS} was given.
     */
    public Optional<IndexDef> createIndex(Statement.CreateIndex s, String sessionCluster) {
        String requested = s.cluster() != null ? s.cluster() : sessionCluster;
        PlannedBeforeLock<PlannedIndex> early = PlannedBeforeLock.plan(state.catalog(), resolvedOrNull(requested),
                c -> planIndex(c, s, clusters.resolveCluster(requested)));
        return pipeline.sequenced(() -> {
            String cluster = clusters.resolveCluster(requested);
            Catalog current = state.catalog();
            if (s.name() != null && current.relationExists(s.name())) {
                if (s.ifNotExists()) return Optional.<IndexDef>empty();
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + s.name() + "\" already exists");
            }
            String on = s.onName();
            ObjectKind onKind = current.kindOf(on).orElseThrow(
                    () -> new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + on + "\" does not exist"));
            if (onKind == ObjectKind.INDEX) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "cannot create index on relation \"" + on + "\"",
                        "This operation is not supported for indexes.", null);
            }
            PlannedIndex planned = early.against(current, cluster, c -> planIndex(c, s, cluster));
            IndexDef def = planned.def();
            String name = def.name();
            if (s.unique()) checkUniqueIndex(current, def, onKind);
            if (onKind == ObjectKind.TABLE) {
                IndexKeyCheck.checkEvaluates(planned.key(), state.table(def.onId())
                        .map(tb -> tb.read(pipeline.oracle().readTimestamp())).orElseGet(Changes::new));
            }
            DataflowSpec spec = planned.spec();
            byte[] payload = IndexCodec.encode(def);
            installThenLog(spec, cluster,
                    () -> pipeline.submit(ts -> new LogRecord.CatalogEntry(IndexCodec.KIND, name, payload)));
            return Optional.of(def);
        });
    }

    /** An index's definition and dataflow, planned against one catalog. */
    private record PlannedIndex(IndexDef def, List<Expr> key, DataflowSpec spec) {}

    /**
     * Plans CREATE INDEX {@code s} on {@code cluster} against {@code current}: the key
     * (the object's columns for a default index), the name (generated when none is
     * given), the definition with the next id, and the dataflow.
     */
    private PlannedIndex planIndex(Catalog current, Statement.CreateIndex s, String cluster) {
        String on = s.onName();
        DataflowPlanner planner = this.planner.get();
        List<String> keySql = s.keySql();
        if (s.isDefault() || keySql.isEmpty()) {
            keySql = DataflowPlanner.columnsOf(current, on).columnNames().stream().map(IndexDef::quote).toList();
        }
        List<Expr> key = planner.keyExprs(current, on, keySql);
        String name = s.name() != null ? s.name()
                : generatedIndexName(current, on, s.isDefault() || s.keySql().isEmpty(), key,
                        DataflowPlanner.columnsOf(current, on).columnNames());
        IndexDef def = new IndexDef(current.nextId(), name, current.idOf(on), on, keySql, cluster, s.unique());
        return new PlannedIndex(def, key, planner.index(current.forCluster(cluster), def));
    }

    /** The cluster {@code name} resolves to now, or null if it does not (the lock-held check reports it). */
    private String resolvedOrNull(String name) {
        try {
            return clusters.resolveCluster(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * CREATE UNIQUE INDEX: on a table, keyed by its columns, over rows whose keys are
     * already unique (23505 {@code could not create unique index}). Write lock held.
     */
    private void checkUniqueIndex(Catalog current, IndexDef def, ObjectKind onKind) {
        if (onKind != ObjectKind.TABLE) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "cannot create unique index on relation \""
                    + def.onName() + "\"", "A unique index is a constraint on a table's rows.", null);
        }
        TableDef table = current.tables().stream().filter(t -> t.id() == def.onId()).findFirst().orElseThrow();
        for (String key : def.keySql()) {
            if (UniqueConstraints.columnOf(table, key) < 0) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unique index on an expression is not supported",
                        null, "Key a unique index by columns: CREATE UNIQUE INDEX ... ON t (a, b).");
            }
        }
        pipeline.constraints().checkBuildable(table, def, pipeline.oracle().readTimestamp());
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
     * CREATE [OR REPLACE] MATERIALIZED VIEW on {@code IN CLUSTER}'s cluster, else {@code
     * sessionCluster} (42704 if it does not exist). Planned before the write lock, as an index
     * (errors as for the SELECT; a planning error creates nothing), installed, then logged, as
     * for {@link #createIndex}. A replacement gets a new id and is refused (2BP01) while
     * anything depends on the old one; the old dataflow is dropped once the new entry is
     * durable. Returns empty if the name exists and {@code IF NOT EXISTS} was given.
     */
    public Optional<MaterializedViewDef> createMaterializedView(Statement.CreateMaterializedView s, String sessionCluster) {
        String requested = s.cluster() != null ? s.cluster() : sessionCluster;
        PlannedBeforeLock<PlannedMaterializedView> early = PlannedBeforeLock.plan(state.catalog(),
                resolvedOrNull(requested), c -> planMaterializedView(c, s, clusters.resolveCluster(requested)));
        return pipeline.sequenced(() -> {
            String cluster = clusters.resolveCluster(requested);
            Catalog current = state.catalog();
            String name = s.name();
            Optional<ObjectKind> existing = current.kindOf(name);
            Optional<MaterializedViewDef> old = current.materializedView(name);
            if (existing.isPresent()) {
                if (s.ifNotExists()) return Optional.<MaterializedViewDef>empty();
                if (!s.orReplace()) throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
                if (old.isEmpty()) throw ViewRules.wrongKind(name, ObjectKind.MATERIALIZED_VIEW, existing.get());
                List<String> dependents = current.dependentNames(name);
                if (!dependents.isEmpty()) {
                    // Even its own indexes: they were built on the old definition's id.
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot replace materialized view " + name + " because other objects depend on it",
                            "depended upon by " + String.join(", ", dependents),
                            "Drop them first, or DROP MATERIALIZED VIEW " + name + " CASCADE and create it again.");
                }
            }
            PlannedMaterializedView planned = early.against(current, cluster, c -> planMaterializedView(c, s, cluster));
            MaterializedViewDef def = planned.def();
            DataflowSpec spec = planned.spec();
            byte[] payload = MaterializedViewCodec.encode(def);
            installThenLog(spec, cluster,
                    () -> pipeline.submit(ts -> new LogRecord.CatalogEntry(MaterializedViewCodec.KIND, name, payload)));
            old.ifPresent(o -> hydration.uninstall(o.id()));
            return Optional.of(def);
        });
    }

    /** A materialized view's definition and dataflow, planned against one catalog. */
    private record PlannedMaterializedView(MaterializedViewDef def, DataflowSpec spec) {}

    private PlannedMaterializedView planMaterializedView(Catalog current, Statement.CreateMaterializedView s,
                                                         String cluster) {
        DataflowPlanner planner = this.planner.get();
        MaterializedViewDef def = planner.defineMaterializedView(current, current.nextId(), s, cluster);
        return new PlannedMaterializedView(def, planner.materializedView(current.forCluster(cluster), def));
    }

    /** Installs {@code spec}'s dataflow, then runs {@code log}; drops the dataflow again if logging fails. */
    private void installThenLog(DataflowSpec spec, String cluster, Runnable log) {
        try {
            hydration.install(spec, cluster);
        } catch (UnsupportedOperationException e) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "cannot maintain " + spec.name() + ": " + e.getMessage(), null, null, e);
        }
        try {
            log.run();
        } catch (RuntimeException e) {
            hydration.uninstall(spec.exportId());
            throw e;
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
        return pipeline.sequenced(() -> {
            byte[] payload = SystemParameterCodec.encode(text);
            pipeline.submit(ts -> new LogRecord.CatalogEntry(SystemParameterCodec.KIND, p.name(), payload));
            return text;
        });
    }

    /**
     * ALTER SYSTEM RESET {@code name} (42704 if unknown), or every override when {@code
     * name} is {@code all}: removes the override durably (one log record per parameter;
     * a parameter without an override costs nothing).
     */
    public void alterSystemReset(String name) {
        String only = name.equalsIgnoreCase("all") ? null : Params.require(name).name();
        pipeline.sequenced(() -> {
            var overrides = state.systemParameters().snapshot().overrides();
            List<String> names = only != null ? List.of(only) : List.copyOf(overrides.keySet());
            for (String n : names) {
                if (state.systemParameters().snapshot().overrides().containsKey(n)) {
                    pipeline.submit(ts -> new LogRecord.CatalogRemoval(SystemParameterCodec.KIND, n));
                }
            }
        });
    }
}
