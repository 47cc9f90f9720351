package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.types.SqlType;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A real in-memory catalog with a few tables, for planning tests. */
final class TestCatalog implements CatalogView {
    final Map<String, TableDef> tables = new LinkedHashMap<>();

    static final TableDef ACCOUNTS = new TableDef(11, "pgbench_accounts", List.of(
            new ColumnDef("aid", SqlType.INTEGER, true, null),
            new ColumnDef("bid", SqlType.INTEGER, false, null),
            new ColumnDef("abalance", SqlType.INTEGER, false, null),
            new ColumnDef("filler", SqlType.character(84), false, null)));
    static final TableDef T = new TableDef(12, "t", List.of(
            new ColumnDef("a", SqlType.INTEGER, true, null),
            new ColumnDef("b", SqlType.TEXT, false, null),
            new ColumnDef("c", SqlType.numeric(10, 2), false, null),
            new ColumnDef("d", SqlType.BIGINT, false, null),
            new ColumnDef("e", SqlType.DOUBLE, false, null),
            new ColumnDef("f", SqlType.DATE, false, null),
            new ColumnDef("g", SqlType.TIMESTAMP, false, null),
            new ColumnDef("h", SqlType.BOOLEAN, false, null),
            new ColumnDef("s", SqlType.SMALLINT, false, null),
            new ColumnDef("v", SqlType.varchar(10), false, null),
            new ColumnDef("n", SqlType.NUMERIC, false, null)));
    static final TableDef U = new TableDef(13, "u", List.of(
            new ColumnDef("a", SqlType.INTEGER, false, null),
            new ColumnDef("x", SqlType.TEXT, false, null)));
    static final TableDef QUOTED = new TableDef(14, "MixedCase", List.of(
            new ColumnDef("Id", SqlType.INTEGER, false, null)));

    /** Column names that are keywords somewhere (Calcite or the SQL standard) but fine in PostgreSQL. */
    static final TableDef KV = new TableDef(15, "kv", List.of(
            new ColumnDef("key", SqlType.TEXT, false, null),
            new ColumnDef("value", SqlType.INTEGER, false, null),
            new ColumnDef("year", SqlType.INTEGER, false, null),
            new ColumnDef("date", SqlType.DATE, false, null),
            new ColumnDef("name", SqlType.TEXT, false, null),
            new ColumnDef("status", SqlType.TEXT, false, null),
            new ColumnDef("count", SqlType.BIGINT, false, null)));

    TestCatalog() {
        for (TableDef d : List.of(ACCOUNTS, T, U, QUOTED, KV)) tables.put(d.name(), d);
    }

    @Override
    public Optional<TableDef> table(String name) { return Optional.ofNullable(tables.get(name)); }

    @Override
    public Collection<TableDef> tables() { return tables.values(); }
}
