package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * A materialized view: a named query whose result compute maintains as a collection of
 * its own (read as {@code Get(id)}, never expanded). A separate record from {@link
 * ViewDef} because the two behave differently everywhere that matters (planning,
 * compute, drop), so code that handles views cannot treat one by accident.
 *
 * <p>{@code definition}, {@code columnNames}, {@code columnTypes} and {@code dependsOn}
 * mean what they mean for a {@link ViewDef}; {@code cluster} is the cluster that
 * maintains it. CREATE OR REPLACE gives the replacement a new id (a new collection).
 */
public record MaterializedViewDef(long id, String name, List<String> columnNames, List<SqlType> columnTypes,
                                  String definition, List<String> dependsOn, String cluster) {
    public MaterializedViewDef {
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        dependsOn = List.copyOf(dependsOn);
        if (columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException("materialized view " + name + ": " + columnNames.size() + " names, "
                    + columnTypes.size() + " types");
        }
    }

    /** The columns as a (nullable) table definition: how planners see the collection. */
    public TableDef asTable() {
        List<ColumnDef> cols = new ArrayList<>();
        for (int i = 0; i < columnNames.size(); i++) cols.add(new ColumnDef(columnNames.get(i), columnTypes.get(i), false, null));
        return new TableDef(id, name, cols);
    }
}
