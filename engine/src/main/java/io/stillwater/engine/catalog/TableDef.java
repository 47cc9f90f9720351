package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Optional;

/**
 * A table's definition. {@code id} is unique for the life of the data directory and
 * never reused, so log records that name a dropped table's id are recognisable.
 * Names are stored as the user sees them after identifier folding (lower-cased unless
 * quoted). {@code primaryKey} holds the 0-based positions of the columns of a declared
 * PRIMARY KEY, in key order (empty without one); it is recorded for the catalog
 * ({@code pg_constraint}, {@code pg_index}, JDBC's getPrimaryKeys) and not enforced.
 */
public record TableDef(long id, String name, List<ColumnDef> columns, List<Integer> primaryKey) {
    public TableDef {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    /** A table without a declared primary key. */
    public TableDef(long id, String name, List<ColumnDef> columns) { this(id, name, columns, List.of()); }

    public List<SqlType> types() { return columns.stream().map(ColumnDef::type).toList(); }

    public List<String> columnNames() { return columns.stream().map(ColumnDef::name).toList(); }

    public Optional<Integer> columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) if (columns.get(i).name().equals(column)) return Optional.of(i);
        return Optional.empty();
    }
}
