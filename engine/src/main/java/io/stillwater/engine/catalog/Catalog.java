package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog of user objects, as an immutable value: every change returns a new
 * {@code Catalog}. The engine publishes the current one through a volatile field, so a
 * planner sees one consistent catalog for a whole statement without locking.
 *
 * <p>Tables, views, materialized views and indexes share one namespace (a name is at
 * most one of them, as in PostgreSQL where indexes are relations too). {@code nextId} is
 * the next object id, for every kind; ids are never reused, even after a drop.
 *
 * <p>Invariants: every name in a view's or materialized view's {@code dependsOn} names
 * a table, view or materialized view of this catalog, and every index's {@code onName}
 * one of them (drops remove dependents first, so no dependency ever dangles).
 */
public record Catalog(Map<String, TableDef> tablesByName, Map<String, ViewDef> viewsByName,
                      Map<String, MaterializedViewDef> materializedViewsByName, Map<String, IndexDef> indexesByName,
                      long nextId) implements CatalogView {
    public static final long FIRST_USER_ID = 1000;

    public Catalog {
        tablesByName = Collections.unmodifiableMap(new TreeMap<>(tablesByName));
        viewsByName = Collections.unmodifiableMap(new TreeMap<>(viewsByName));
        materializedViewsByName = Collections.unmodifiableMap(new TreeMap<>(materializedViewsByName));
        indexesByName = Collections.unmodifiableMap(new TreeMap<>(indexesByName));
    }

    public Catalog(Map<String, TableDef> tablesByName, Map<String, ViewDef> viewsByName, long nextId) {
        this(tablesByName, viewsByName, Map.of(), Map.of(), nextId);
    }

    public Catalog(Map<String, TableDef> tablesByName, long nextId) { this(tablesByName, Map.of(), nextId); }

    public static Catalog empty() { return new Catalog(Map.of(), Map.of(), FIRST_USER_ID); }

    @Override
    public Optional<TableDef> table(String name) { return Optional.ofNullable(tablesByName.get(name)); }

    @Override
    public Collection<TableDef> tables() { return tablesByName.values(); }

    @Override
    public Optional<ViewDef> view(String name) { return Optional.ofNullable(viewsByName.get(name)); }

    @Override
    public Collection<ViewDef> views() { return viewsByName.values(); }

    @Override
    public Optional<MaterializedViewDef> materializedView(String name) {
        return Optional.ofNullable(materializedViewsByName.get(name));
    }

    @Override
    public Collection<MaterializedViewDef> materializedViews() { return materializedViewsByName.values(); }

    public Optional<IndexDef> index(String name) { return Optional.ofNullable(indexesByName.get(name)); }

    @Override
    public Collection<IndexDef> indexes() { return indexesByName.values(); }

    /** Whether {@code name} is taken by an object of any kind. */
    public boolean relationExists(String name) { return kindOf(name).isPresent(); }

    /** The kind of the object named {@code name}, if there is one. */
    public Optional<ObjectKind> kindOf(String name) {
        if (tablesByName.containsKey(name)) return Optional.of(ObjectKind.TABLE);
        if (viewsByName.containsKey(name)) return Optional.of(ObjectKind.VIEW);
        if (materializedViewsByName.containsKey(name)) return Optional.of(ObjectKind.MATERIALIZED_VIEW);
        if (indexesByName.containsKey(name)) return Optional.of(ObjectKind.INDEX);
        return Optional.empty();
    }

    /** The id of the object named {@code name}; -1 if there is none. */
    public long idOf(String name) {
        return switch (kindOf(name).orElse(null)) {
            case TABLE -> tablesByName.get(name).id();
            case VIEW -> viewsByName.get(name).id();
            case MATERIALIZED_VIEW -> materializedViewsByName.get(name).id();
            case INDEX -> indexesByName.get(name).id();
            case null -> -1;
        };
    }

    public Optional<TableDef> tableById(long id) {
        return tablesByName.values().stream().filter(t -> t.id() == id).findFirst();
    }

    /** The name of the object with id {@code id}, of any kind. */
    public Optional<String> nameOf(long id) {
        for (var t : tablesByName.values()) if (t.id() == id) return Optional.of(t.name());
        for (var v : viewsByName.values()) if (v.id() == id) return Optional.of(v.name());
        for (var m : materializedViewsByName.values()) if (m.id() == id) return Optional.of(m.name());
        for (var i : indexesByName.values()) if (i.id() == id) return Optional.of(i.name());
        return Optional.empty();
    }

    /** The views that read {@code name} directly, by name. */
    public List<ViewDef> directDependents(String name) {
        List<ViewDef> out = new ArrayList<>();
        for (ViewDef v : viewsByName.values()) if (v.dependsOn().contains(name)) out.add(v);
        return out;
    }

    /**
     * The names of every object that depends on {@code name} directly: views and
     * materialized views that read it, indexes on it. Sorted by name.
     */
    public List<String> dependentNames(String name) {
        List<String> out = new ArrayList<>();
        for (ViewDef v : viewsByName.values()) if (v.dependsOn().contains(name)) out.add(v.name());
        for (var m : materializedViewsByName.values()) if (m.dependsOn().contains(name)) out.add(m.name());
        for (IndexDef i : indexesByName.values()) if (i.onName().equals(name)) out.add(i.name());
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The indexes on the object named {@code name}, by name. */
    public List<IndexDef> indexesOn(String name) {
        return indexesByName.values().stream().filter(i -> i.onName().equals(name)).toList();
    }

    /** The catalog with {@code table} added; 42P07 if the name is taken. */
    public Catalog withTable(TableDef table) {
        if (relationExists(table.name())) throw duplicate(table.name());
        var m = new TreeMap<>(tablesByName);
        m.put(table.name(), table);
        return new Catalog(m, viewsByName, materializedViewsByName, indexesByName, Math.max(nextId, table.id() + 1));
    }

    /** The catalog without the table with id {@code id} (no-op if absent, as during log replay). */
    /** This catalog with its id counter at least {@code floor} (a checkpoint restores the counter past dropped objects' ids). */
    public Catalog withNextIdAtLeast(long floor) {
        return new Catalog(tablesByName, viewsByName, materializedViewsByName, indexesByName, Math.max(nextId, floor));
    }

    public Catalog withoutTable(long id) {
        var m = new TreeMap<>(tablesByName);
        m.values().removeIf(t -> t.id() == id);
        return new Catalog(m, viewsByName, materializedViewsByName, indexesByName, nextId);
    }

    /**
     * The catalog with {@code view} added, or replacing the view of that name (CREATE OR
     * REPLACE); 42P07 if an object of another kind has the name.
     */
    public Catalog withView(ViewDef view) {
        if (relationExists(view.name()) && !viewsByName.containsKey(view.name())) throw duplicate(view.name());
        var m = new TreeMap<>(viewsByName);
        m.put(view.name(), view);
        return new Catalog(tablesByName, m, materializedViewsByName, indexesByName, Math.max(nextId, view.id() + 1));
    }

    /** The catalog without the view {@code name} (no-op if absent). */
    public Catalog withoutView(String name) {
        var m = new TreeMap<>(viewsByName);
        m.remove(name);
        return new Catalog(tablesByName, m, materializedViewsByName, indexesByName, nextId);
    }

    /**
     * The catalog with {@code mv} added, or replacing the materialized view of that name;
     * 42P07 if an object of another kind has the name.
     */
    public Catalog withMaterializedView(MaterializedViewDef mv) {
        if (relationExists(mv.name()) && !materializedViewsByName.containsKey(mv.name())) throw duplicate(mv.name());
        var m = new TreeMap<>(materializedViewsByName);
        m.put(mv.name(), mv);
        return new Catalog(tablesByName, viewsByName, m, indexesByName, Math.max(nextId, mv.id() + 1));
    }

    /** The catalog without the materialized view {@code name} (no-op if absent). */
    public Catalog withoutMaterializedView(String name) {
        var m = new TreeMap<>(materializedViewsByName);
        m.remove(name);
        return new Catalog(tablesByName, viewsByName, m, indexesByName, nextId);
    }

    /** The catalog with {@code index} added (or replaced, as in log replay); 42P07 if another kind has the name. */
    public Catalog withIndex(IndexDef index) {
        if (relationExists(index.name()) && !indexesByName.containsKey(index.name())) throw duplicate(index.name());
        var m = new TreeMap<>(indexesByName);
        m.put(index.name(), index);
        return new Catalog(tablesByName, viewsByName, materializedViewsByName, m, Math.max(nextId, index.id() + 1));
    }

    /** The catalog without the index {@code name} (no-op if absent). */
    public Catalog withoutIndex(String name) {
        var m = new TreeMap<>(indexesByName);
        m.remove(name);
        return new Catalog(tablesByName, viewsByName, materializedViewsByName, m, nextId);
    }

    /**
     * The catalog as a dataflow created with id {@code id} saw it: only indexes with
     * smaller ids exist. Restart re-plans every dataflow against this, so a dataflow
     * only ever imports arrangements installed before it (install order = id order).
     */
    public Catalog withIndexesBelow(long id) {
        var m = new TreeMap<>(indexesByName);
        m.values().removeIf(i -> i.id() >= id);
        return new Catalog(tablesByName, viewsByName, materializedViewsByName, m, nextId);
    }

    /**
     * The catalog as a session on {@code cluster} plans reads against it: only indexes
     * on {@code cluster} exist (Materialize's rule: a query can use only the indexes of
     * the cluster it runs on; a view indexed elsewhere is expanded). {@code this} when
     * every index is on {@code cluster}.
     */
    public Catalog withIndexesOn(String cluster) {
        if (indexesByName.values().stream().allMatch(i -> i.cluster().equals(cluster))) return this;
        var m = new TreeMap<>(indexesByName);
        m.values().removeIf(i -> !i.cluster().equals(cluster));
        return new Catalog(tablesByName, viewsByName, materializedViewsByName, m, nextId);
    }

    /**
     * The catalog as the dataflows of {@code cluster} are planned against it: only that
     * cluster's indexes, and materialized views of other clusters seen as plain views
     * (expanded and recomputed: no replica of {@code cluster} holds their output).
     */
    public Catalog forCluster(String cluster) {
        Catalog c = withIndexesOn(cluster);
        if (materializedViewsByName.values().stream().allMatch(m -> m.cluster().equals(cluster))) return c;
        var mvs = new TreeMap<>(materializedViewsByName);
        var views = new TreeMap<>(viewsByName);
        for (MaterializedViewDef m : materializedViewsByName.values()) {
            if (m.cluster().equals(cluster)) continue;
            mvs.remove(m.name());
            views.put(m.name(), new ViewDef(m.id(), m.name(), m.columnNames(), m.columnTypes(), m.definition(), m.dependsOn()));
        }
        return new Catalog(tablesByName, views, mvs, c.indexesByName, nextId);
    }

    private static SqlException duplicate(String name) {
        return new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
    }
}
