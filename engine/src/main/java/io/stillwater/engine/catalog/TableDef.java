package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Optional;

/**
 * A table's definition. {@code id} is unique for the life of the data directory and
 * never reused, so log records that name a dropped table's id are recognisable.
 * Names are stored as the user sees them after identifier folding (lower-cased unless
 * quoted).
 */
public record TableDef(long id, String name, List<ColumnDef> columns) {
    public TableDef {
        columns = List.copyOf(columns);
    }

    public List<SqlType> types() { return columns.stream().map(ColumnDef::type).toList(); }

    public List<String> columnNames() { return columns.stream().map(ColumnDef::name).toList(); }

    public Optional<Integer> columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) if (columns.get(i).name().equals(column)) return Optional.of(i);
        return Optional.empty();
    }
}
