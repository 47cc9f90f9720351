package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.sql.CatalogView;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A Calcite schema over one {@link CatalogView} snapshot: tables are looked up by name
 * on demand (no listing per statement), and PostgreSQL's type names that Calcite lacks
 * ({@code text}, {@code int4}, {@code bytea}, ...) are registered as type aliases.
 * Created per statement; cheap.
 */
final class CatalogSchema extends AbstractSchema {
    private final CatalogView catalog;

    CatalogSchema(CatalogView catalog) { this.catalog = catalog; }

    /** A table as Calcite sees it; {@link #def()} recovers the engine's definition from a scan. */
    static final class CatalogTable extends AbstractTable {
        private final TableDef def;

        CatalogTable(TableDef def) { this.def = def; }

        TableDef def() { return def; }

        @Override
        public RelDataType getRowType(RelDataTypeFactory f) {
            var b = f.builder();
            for (ColumnDef c : def.columns()) {
                b.add(c.name(), f.createTypeWithNullability(TypeMapping.toRel(c.type(), f), !c.notNull()));
            }
            return b.build();
        }
    }

    /** PostgreSQL's default schema: {@code public.t} is {@code t}. */
    @Override
    protected Map<String, org.apache.calcite.schema.Schema> getSubSchemaMap() {
        return Map.of("public", new CatalogSchema(catalog));
    }

    @Override
    public Lookup<Table> tables() {
        return new Lookup<>() {
            @Override
            public Table get(String name) {
                return catalog.table(name).map(CatalogTable::new).orElse(null);
            }

            @Override
            public Named<Table> getIgnoreCase(String name) {
                for (TableDef d : catalog.tables()) {
                    if (d.name().equalsIgnoreCase(name)) return new Named<>(d.name(), new CatalogTable(d));
                }
                return null;
            }

            @Override
            public Set<String> getNames(LikePattern pattern) {
                Set<String> out = new LinkedHashSet<>();
                var matcher = pattern.matcher();
                for (TableDef d : catalog.tables()) if (matcher.apply(d.name())) out.add(d.name());
                return out;
            }
        };
    }

    private static final Map<String, Function<RelDataTypeFactory, RelDataType>> TYPE_ALIASES = Map.ofEntries(
            Map.entry("text", f -> f.createSqlType(SqlTypeName.VARCHAR)),
            Map.entry("int2", f -> f.createSqlType(SqlTypeName.SMALLINT)),
            Map.entry("int4", f -> f.createSqlType(SqlTypeName.INTEGER)),
            Map.entry("int8", f -> f.createSqlType(SqlTypeName.BIGINT)),
            Map.entry("float4", f -> f.createSqlType(SqlTypeName.REAL)),
            Map.entry("float8", f -> f.createSqlType(SqlTypeName.DOUBLE)),
            Map.entry("bool", f -> f.createSqlType(SqlTypeName.BOOLEAN)),
            Map.entry("bytea", f -> f.createSqlType(SqlTypeName.VARBINARY)),
            Map.entry("timestamptz", f -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6)),
            Map.entry("serial", f -> f.createSqlType(SqlTypeName.INTEGER)),
            Map.entry("bigserial", f -> f.createSqlType(SqlTypeName.BIGINT)),
            Map.entry("bpchar", f -> f.createSqlType(SqlTypeName.CHAR, 1)),
            Map.entry("string", f -> f.createSqlType(SqlTypeName.VARCHAR)));

    @Override
    protected Map<String, RelProtoDataType> getTypeMap() {
        var out = new java.util.HashMap<String, RelProtoDataType>();
        TYPE_ALIASES.forEach((name, fn) -> {
            RelProtoDataType proto = fn::apply;
            out.put(name, proto);
            out.put(name.toUpperCase(java.util.Locale.ROOT), proto);
        });
        return out;
    }
}
