package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CatalogView;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog of user objects, as an immutable value: every change returns a new
 * {@code Catalog}. The engine publishes the current one through a volatile field, so a
 * planner sees one consistent catalog for a whole statement without locking.
 *
 * <p>{@code nextId} is the next object id; ids are never reused, even after a drop.
 */
public record Catalog(Map<String, TableDef> tablesByName, long nextId) implements CatalogView {
    public static final long FIRST_USER_ID = 1000;

    public Catalog {
        tablesByName = java.util.Collections.unmodifiableMap(new TreeMap<>(tablesByName));
    }

    public static Catalog empty() { return new Catalog(Map.of(), FIRST_USER_ID); }

    @Override
    public Optional<TableDef> table(String name) { return Optional.ofNullable(tablesByName.get(name)); }

    @Override
    public Collection<TableDef> tables() { return tablesByName.values(); }

    public Optional<TableDef> tableById(long id) {
        return tablesByName.values().stream().filter(t -> t.id() == id).findFirst();
    }

    /** The catalog with {@code table} added; 42P07 if the name is taken. */
    public Catalog withTable(TableDef table) {
        if (tablesByName.containsKey(table.name())) {
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + table.name() + "\" already exists");
        }
        var m = new TreeMap<>(tablesByName);
        m.put(table.name(), table);
        return new Catalog(m, Math.max(nextId, table.id() + 1));
    }

    /** The catalog without the table with id {@code id} (no-op if absent, as during log replay). */
    public Catalog withoutTable(long id) {
        var m = new TreeMap<>(tablesByName);
        m.values().removeIf(t -> t.id() == id);
        return new Catalog(m, nextId);
    }
}
