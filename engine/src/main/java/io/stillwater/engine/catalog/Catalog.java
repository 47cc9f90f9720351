package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CatalogView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog of user objects, as an immutable value: every change returns a new
 * {@code Catalog}. The engine publishes the current one through a volatile field, so a
 * planner sees one consistent catalog for a whole statement without locking.
 *
 * <p>Tables and views share one namespace (a name is at most one of them). {@code nextId}
 * is the next object id, for tables and views alike; ids are never reused, even after a
 * drop. Invariant: every name in a view's {@link ViewDef#dependsOn()} is a table or view
 * of this catalog (drops remove dependents first).
 */
public record Catalog(Map<String, TableDef> tablesByName, Map<String, ViewDef> viewsByName, long nextId)
        implements CatalogView {
    public static final long FIRST_USER_ID = 1000;

    public Catalog {
        tablesByName = java.util.Collections.unmodifiableMap(new TreeMap<>(tablesByName));
        viewsByName = java.util.Collections.unmodifiableMap(new TreeMap<>(viewsByName));
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

    /** Whether {@code name} is taken by a table or a view. */
    public boolean relationExists(String name) { return tablesByName.containsKey(name) || viewsByName.containsKey(name); }

    public Optional<TableDef> tableById(long id) {
        return tablesByName.values().stream().filter(t -> t.id() == id).findFirst();
    }

    /** The views that read {@code name} directly, by name. */
    public List<ViewDef> directDependents(String name) {
        List<ViewDef> out = new ArrayList<>();
        for (ViewDef v : viewsByName.values()) if (v.dependsOn().contains(name)) out.add(v);
        return out;
    }

    /** The catalog with {@code table} added; 42P07 if the name is taken. */
    public Catalog withTable(TableDef table) {
        if (relationExists(table.name())) {
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + table.name() + "\" already exists");
        }
        var m = new TreeMap<>(tablesByName);
        m.put(table.name(), table);
        return new Catalog(m, viewsByName, Math.max(nextId, table.id() + 1));
    }

    /** The catalog without the table with id {@code id} (no-op if absent, as during log replay). */
    public Catalog withoutTable(long id) {
        var m = new TreeMap<>(tablesByName);
        m.values().removeIf(t -> t.id() == id);
        return new Catalog(m, viewsByName, nextId);
    }

    /**
     * The catalog with {@code view} added, or replacing the view of that name (CREATE OR
     * REPLACE); 42P07 if a table has the name.
     */
    public Catalog withView(ViewDef view) {
        if (tablesByName.containsKey(view.name())) {
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + view.name() + "\" already exists");
        }
        var m = new TreeMap<>(viewsByName);
        m.put(view.name(), view);
        return new Catalog(tablesByName, m, Math.max(nextId, view.id() + 1));
    }

    /** The catalog without the view {@code name} (no-op if absent). */
    public Catalog withoutView(String name) {
        var m = new TreeMap<>(viewsByName);
        m.remove(name);
        return new Catalog(tablesByName, m, nextId);
    }
}
