package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.PgCatalog;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.catalog.CatalogView;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A Calcite schema over one {@link CatalogView} snapshot: tables and views are looked up
 * by name on demand (no listing per statement), and PostgreSQL's type names that Calcite
 * lacks ({@code text}, {@code int4}, {@code bytea}, ...) are registered as type aliases.
 * Created per statement; cheap.
 *
 * <p>Views are {@link TranslatableTable}s whose {@code toRel} plans the view's stored
 * query through a {@link ViewExpander} (the front end), so a query over a view plans as
 * if the view's query were written inline. Every name this schema resolves is added to
 * {@code references} (when given): creating a view records them as its dependencies.
 *
 * <p>How each kind of object is read: a table, a materialized view and a view that has
 * an index are {@link CatalogTable}s, which plan as {@code Get(id)} (compute serves
 * materialized views and indexed views from their arrangements); a view without an
 * index is expanded. Sub-schemas {@code mz_catalog} and {@code mz_internal} hold the
 * built-in relations of {@link SystemRelations}, also {@code Get}s (of ids below 1000).
 */
final class CatalogSchema extends AbstractSchema {
    /** Plans a view's stored query; implemented by the front end. */
    interface ViewExpander {
        /** The row type of {@code view}'s query, with the view's column names. */
        RelDataType rowType(ViewDef view);

        /** {@code view}'s query as a relational expression in {@code cluster}. */
        RelNode expand(ViewDef view, RelOptCluster cluster);
    }

    private final CatalogView catalog;
    private final ViewExpander views;
    private final Set<String> references;

    /**
     * @param references where to record the names of the tables and views resolved, or
     *     null to record nothing
     */
    CatalogSchema(CatalogView catalog, ViewExpander views, Set<String> references) {
        this.catalog = catalog;
        this.views = views;
        this.references = references;
    }

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

    /** A view: its row type and its expansion both come from planning the stored query. */
    static final class ViewRelation extends AbstractTable implements TranslatableTable {
        private final ViewDef def;
        private final ViewExpander expander;
        private RelDataType rowType;

        ViewRelation(ViewDef def, ViewExpander expander) {
            this.def = def;
            this.expander = expander;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory f) {
            if (rowType == null) rowType = expander.rowType(def);
            return rowType;
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
            RelNode rel = expander.expand(def, context.getCluster());
            // Same names and types as the validator saw; casts only if Calcite derived a
            // different nullability while converting.
            return RelOptUtil.createCastRel(rel, relOptTable.getRowType(), true);
        }
    }

    /**
     * A schema of built-in relations ({@code mz_catalog}, {@code mz_internal}): each is a
     * {@link CatalogTable} of its fixed id, so a read plans as {@code Get(id)} and the
     * read path asks {@code coord.SystemRelationRows.contents} for the rows.
     */
    private static final class SystemSchema extends AbstractSchema {
        private final String schema;

        SystemSchema(String schema) { this.schema = schema; }

        @Override
        protected Map<String, Table> getTableMap() {
            Map<String, Table> out = new HashMap<>();
            for (SystemRelations.Builtin b : SystemRelations.all()) {
                if (b.schema().equals(schema)) out.put(b.name(), new CatalogTable(b.def()));
            }
            return out;
        }
    }

    /** PostgreSQL's default schema: {@code public.t} is {@code t}; and the built-in schemas. */
    @Override
    protected Map<String, Schema> getSubSchemaMap() {
        Map<String, Schema> out = new HashMap<>();
        out.put("public", new CatalogSchema(catalog, views, references));
        for (String s : SystemRelations.schemas()) out.put(s, new SystemSchema(s));
        return out;
    }

    private Table resolve(String name) {
        var table = catalog.table(name);
        if (table.isPresent()) {
            if (references != null) references.add(name);
            return new CatalogTable(table.get());
        }
        var mv = catalog.materializedView(name);
        if (mv.isPresent()) {
            if (references != null) references.add(name);
            return new CatalogTable(mv.get().asTable());
        }
        var view = catalog.view(name);
        if (view.isPresent()) {
            if (references != null) references.add(name);
            // An indexed view is read from its index (compute holds its rows as
            // collection view.id); an unindexed one is expanded into the query.
            if (catalog.isIndexed(name)) return new CatalogTable(view.get().asTable());
            return new ViewRelation(view.get(), views);
        }
        // As in Materialize, mz_catalog is on the search path (after the user's objects here).
        return SystemRelations.lookup("mz_catalog", name).map(b -> (Table) new CatalogTable(b.def())).orElse(null);
    }

    /**
     * PostgreSQL's implicit {@code pg_catalog} at the head of every search path: an
     * unqualified {@code pg_class} is {@code pg_catalog.pg_class} even if the user has a
     * relation of that name.
     */
    private Table resolveWithPgCatalog(String name) {
        var pg = SystemRelations.lookup(PgCatalog.PG_CATALOG, name);
        if (pg.isPresent()) return new CatalogTable(pg.get().def());
        return resolve(name);
    }

    @Override
    public Lookup<Table> tables() {
        return new Lookup<>() {
            @Override
            public Table get(String name) {
                return resolveWithPgCatalog(name);
            }

            @Override
            public Named<Table> getIgnoreCase(String name) {
                for (String n : getNames(LikePattern.any())) {
                    if (n.equalsIgnoreCase(name)) return new Named<>(n, resolveWithPgCatalog(n));
                }
                return null;
            }

            @Override
            public Set<String> getNames(LikePattern pattern) {
                Set<String> out = new LinkedHashSet<>();
                var matcher = pattern.matcher();
                for (TableDef d : catalog.tables()) if (matcher.apply(d.name())) out.add(d.name());
                for (ViewDef d : catalog.views()) if (matcher.apply(d.name())) out.add(d.name());
                for (var d : catalog.materializedViews()) if (matcher.apply(d.name())) out.add(d.name());
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
        var out = new HashMap<String, RelProtoDataType>();
        TYPE_ALIASES.forEach((name, fn) -> {
            RelProtoDataType proto = fn::apply;
            out.put(name, proto);
            out.put(name.toUpperCase(Locale.ROOT), proto);
        });
        return out;
    }
}
