package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * A (non-materialized) view: a named query, expanded into every query that reads it.
 *
 * <p>{@code definition} is the SQL text of the view's query as the user wrote it (after
 * {@code AS}); it is re-planned at every use, so a view reads its inputs' current
 * contents. {@code columnNames} and {@code columnTypes} are fixed at creation (the
 * query's, with the optional column list applied); {@code dependsOn} names the tables
 * and views the query reads directly (not transitively). Those objects cannot be dropped
 * while the view exists except with CASCADE, so a dependency never dangles.
 * {@code id} is assigned once and kept by CREATE OR REPLACE.
 */
public record ViewDef(long id, String name, List<String> columnNames, List<SqlType> columnTypes,
                      String definition, List<String> dependsOn) {
    public ViewDef {
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        dependsOn = List.copyOf(dependsOn);
        if (columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException("view " + name + ": " + columnNames.size() + " names, "
                    + columnTypes.size() + " types");
        }
    }

    /** The columns as a (nullable) table definition: how planners see an indexed view, read from its index. */
    public TableDef asTable() {
        List<ColumnDef> cols = new ArrayList<>();
        for (int i = 0; i < columnNames.size(); i++) cols.add(new ColumnDef(columnNames.get(i), columnTypes.get(i), false, null));
        return new TableDef(id, name, cols);
    }
}
