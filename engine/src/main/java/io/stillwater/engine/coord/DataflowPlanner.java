package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.StatementPlanner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Plans what compute maintains: the {@link DataflowSpec} of an index or materialized
 * view, from its catalog definition and a catalog snapshot. Used at CREATE and again at
 * restart (plans are never stored; they are re-derived from SQL text).
 *
 * <p>Which collections a plan reads as {@code Get}: tables, materialized views and
 * views that have an index in the given catalog (see {@code CatalogSchema}); other
 * views are expanded. An index's own plan for a view V always expands V.
 *
 * <p>Thread-safe (the Calcite front end is); the coordinator calls it under its write lock.
 */
public final class DataflowPlanner {
    private final StatementPlanner planner = new StatementPlanner(sql -> Optional.empty());

    /** One planner, built on first use (Calcite set-up is not free); safe to share between threads. */
    static Supplier<DataflowPlanner> lazily() {
        return new Supplier<>() {
            private volatile DataflowPlanner built;

            @Override
            public DataflowPlanner get() {
                DataflowPlanner p = built;
                if (p == null) built = p = new DataflowPlanner();
                return p;
            }
        };
    }

    /** The dataflow of {@code index}: the rows of its object, arranged by its key. */
    public DataflowSpec index(Catalog catalog, IndexDef index) {
        PlanNode plan = collectionPlan(catalog, index.onName(), "index " + index.name());
        List<Expr> key = keyExprs(catalog, index.onName(), index.keySql());
        return new DataflowSpec(index.id(), index.name(), index.onId(), plan, new DataflowSpec.Export.Index(key));
    }

    /** The dataflow of {@code mv}: its query, exported as its own collection. */
    public DataflowSpec materializedView(Catalog catalog, MaterializedViewDef mv) {
        QueryPlan q = planner.planView(mv.definition(), catalog).plan();
        PlanNode plan = asCollection(q, mv.columnNames().size());
        requireNoBuiltins(plan, "materialized view " + mv.name());
        return new DataflowSpec(mv.id(), mv.name(), mv.id(), plan, new DataflowSpec.Export.MaterializedView());
    }

    /**
     * Plans CREATE MATERIALIZED VIEW {@code s} against {@code catalog} as a new object with
     * id {@code id} on {@code cluster}: the query's columns with the column list applied,
     * and its direct references as dependencies. Errors are those of the SELECT.
     */
    public MaterializedViewDef defineMaterializedView(Catalog catalog, long id, Statement.CreateMaterializedView s,
                                                      String cluster) {
        // Blank padding puts the query at its offset in the statement, so error
        // positions point into the statement as the client sent it.
        var planned = planner.planView(" ".repeat(s.queryOffset()) + s.query(), catalog);
        List<String> names = new ArrayList<>(planned.plan().columnNames());
        if (s.columnNames().size() > names.size()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "too many column names were specified");
        }
        for (int i = 0; i < s.columnNames().size(); i++) names.set(i, s.columnNames().get(i));
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (!seen.add(n)) throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + n + "\" specified more than once");
        }
        List<String> deps = planned.references().stream().sorted().toList();
        if (deps.contains(s.name())) {
            throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION,
                    "materialized view \"" + s.name() + "\" cannot read itself");
        }
        return new MaterializedViewDef(id, s.name(), names, planned.plan().columnTypes(), s.query(), deps, cluster);
    }

    /**
     * The key expressions of an index on {@code on}, planned as the projection of
     * {@code SELECT key, ... FROM on} with {@code on} seen as a plain relation of its
     * columns (a view is not expanded here: keys are expressions over its output).
     */
    public List<Expr> keyExprs(Catalog catalog, String on, List<String> keySql) {
        TableDef columns = columnsOf(catalog, on);
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < keySql.size(); i++) sql.append(i > 0 ? ", " : "").append(keySql.get(i));
        sql.append(" FROM ").append(IndexDef.quote(on));
        Statement st = planner.plan(sql.toString(), List.of(), new AsRelation(catalog, columns));
        if (!(st instanceof Statement.Query q) || q.plan().limit() >= 0 || !q.plan().order().isEmpty()) {
            throw badKey(on);
        }
        PlanNode body = q.plan().body();
        if (body instanceof PlanNode.Get g && g.objectId() == columns.id() && g.arity() == keySql.size()) {
            List<Expr> out = new ArrayList<>();
            for (int i = 0; i < g.arity(); i++) out.add(new Expr.Column(i, g.types().get(i)));
            return out;
        }
        if (body instanceof PlanNode.Project p && p.input() instanceof PlanNode.Get g && g.objectId() == columns.id()
                && p.exprs().size() == keySql.size()) {
            return p.exprs();
        }
        throw badKey(on);
    }

    private static SqlException badKey(String on) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                "index keys must be scalar expressions over the columns of \"" + on + "\"", null,
                "Aggregates, window functions and subqueries cannot be index keys.");
    }

    /** The columns of object {@code name} as a table definition with the object's id. */
    static TableDef columnsOf(Catalog catalog, String name) {
        if (catalog.table(name).isPresent()) return catalog.table(name).get();
        if (catalog.materializedView(name).isPresent()) return catalog.materializedView(name).get().asTable();
        if (catalog.view(name).isPresent()) return catalog.view(name).get().asTable();
        throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
    }

    /** The plan computing the rows of object {@code name}: a Get, or a view's expanded query. */
    PlanNode collectionPlan(Catalog catalog, String name, String what) {
        var t = catalog.table(name);
        if (t.isPresent()) return new PlanNode.Get(t.get().id(), name, t.get().types());
        var mv = catalog.materializedView(name);
        if (mv.isPresent()) return new PlanNode.Get(mv.get().id(), name, mv.get().columnTypes());
        ViewDef v = catalog.view(name).orElseThrow(
                () -> new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
        PlanNode plan = asCollection(planner.planView(v.definition(), catalog).plan(), v.columnNames().size());
        requireNoBuiltins(plan, what);
        return plan;
    }

    /**
     * A query's rows as a collection: its top-level LIMIT/OFFSET become a top-k (ORDER
     * BY alone has no effect on a collection) and sort-only columns are projected away.
     */
    static PlanNode asCollection(QueryPlan q, int columns) {
        PlanNode body = q.body();
        if (q.limit() >= 0 || q.offset() > 0) {
            body = new PlanNode.TopK(body, new int[0], q.order(), q.limit(), q.offset());
        }
        if (body.arity() > columns) {
            List<Expr> keep = new ArrayList<>();
            for (int i = 0; i < columns; i++) keep.add(new Expr.Column(i, body.types().get(i)));
            body = new PlanNode.Project(body, keep);
        }
        return body;
    }

    private static void requireNoBuiltins(PlanNode plan, String what) {
        for (long id : PlanInputs.objectIds(plan)) {
            if (SystemRelations.isSystem(id)) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        what + " cannot read built-in relations (mz_catalog, mz_internal)");
            }
        }
    }

    /** The catalog with object {@code rel} seen as a plain relation of its columns (not a view to expand). */
    private record AsRelation(Catalog base, TableDef rel) implements CatalogView {
        @Override
        public Optional<TableDef> table(String name) {
            return name.equals(rel.name()) ? Optional.of(rel) : base.table(name);
        }

        @Override
        public Collection<TableDef> tables() {
            List<TableDef> out = new ArrayList<>(base.tables());
            out.removeIf(t -> t.name().equals(rel.name()));
            out.add(rel);
            return out;
        }

        @Override
        public Optional<ViewDef> view(String name) { return name.equals(rel.name()) ? Optional.empty() : base.view(name); }

        @Override
        public Collection<ViewDef> views() {
            return base.views().stream().filter(v -> !v.name().equals(rel.name())).toList();
        }

        @Override
        public Optional<MaterializedViewDef> materializedView(String name) {
            return name.equals(rel.name()) ? Optional.empty() : base.materializedView(name);
        }

        @Override
        public Collection<MaterializedViewDef> materializedViews() {
            return base.materializedViews().stream().filter(v -> !v.name().equals(rel.name())).toList();
        }

        @Override
        public Collection<IndexDef> indexes() { return base.indexes(); }
    }

}
