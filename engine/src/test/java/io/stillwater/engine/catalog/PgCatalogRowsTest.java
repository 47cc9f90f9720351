package io.stillwater.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.PgCatalog.Slot;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The pg_catalog and information_schema rows computed from a catalog snapshot. */
class PgCatalogRowsTest {
    private final TableDef t = new TableDef(1000, "t", List.of(
            new ColumnDef("a", SqlType.INTEGER, true, null),
            new ColumnDef("b", SqlType.TEXT, false, null),
            new ColumnDef("c", SqlType.numeric(10, 2), false, new BigDecimal("3.00"))), List.of(0));
    private final Catalog catalog = Catalog.empty().withTable(t)
            .withIndex(new IndexDef(1001, "t_b", 1000, "t", List.of("\"b\""), "default"))
            .withView(new ViewDef(1002, "v", List.of("a"), List.of(SqlType.INTEGER), "SELECT a FROM t", List.of("t")));

    /** The rows of {@code schema.name} as maps from column name to value. */
    private List<Map<String, Object>> rows(String schema, String name) {
        SystemRelations.Builtin rel = PgCatalog.relation(schema, name);
        List<String> cols = rel.def().columnNames();
        return PgCatalogRows.rows(rel.id(), catalog).stream().map((Row r) -> {
            java.util.Map<String, Object> m = new java.util.HashMap<>();
            for (int i = 0; i < cols.size(); i++) m.put(cols.get(i), r.get(i));
            return m;
        }).toList();
    }

    private static Map<Object, Map<String, Object>> by(String key, List<Map<String, Object>> rows) {
        return rows.stream().collect(Collectors.toMap(r -> r.get(key), Function.identity()));
    }

    @Test
    void userObjectsHaveStableOidsAndPostgresRelkinds() {
        var classes = by("relname", rows("pg_catalog", "pg_class"));
        assertThat(classes.get("t")).containsEntry("oid", 16384).containsEntry("relkind", "r")
                .containsEntry("relnamespace", PgCatalog.PUBLIC_OID).containsEntry("relhasindex", true)
                .containsEntry("relnatts", (short) 3).containsEntry("reltype", PgCatalog.oid(1000, Slot.ROW_TYPE));
        assertThat(classes.get("t_pkey")).containsEntry("oid", PgCatalog.oid(1000, Slot.PRIMARY_KEY_INDEX))
                .containsEntry("relkind", "i").containsEntry("relam", PgCatalog.BTREE_AM_OID);
        assertThat(classes.get("t_b")).containsEntry("oid", PgCatalog.oid(1001, Slot.RELATION)).containsEntry("relkind", "i");
        assertThat(classes.get("v")).containsEntry("relkind", "v").containsEntry("relam", 0);
        assertThat(classes.get("pg_class")).containsEntry("oid", 1259).containsEntry("relnamespace", PgCatalog.PG_CATALOG_OID);
        assertThat(classes.get("tables")).containsEntry("relnamespace", PgCatalog.INFORMATION_SCHEMA_OID)
                .containsEntry("relkind", "v");
        assertThat(classes).doesNotContainKey("stillwater_key_columns");
    }

    @Test
    void theDeclaredPrimaryKeyIsAnIndexAndAConstraint() {
        var index = by("indexrelid", rows("pg_catalog", "pg_index"));
        int pkIndex = PgCatalog.oid(1000, Slot.PRIMARY_KEY_INDEX);
        assertThat(index.get(pkIndex)).containsEntry("indisprimary", true).containsEntry("indisunique", true)
                .containsEntry("indrelid", 16384).containsEntry("indkey", "1");
        assertThat(index.get(PgCatalog.oid(1001, Slot.RELATION))).containsEntry("indisprimary", false)
                .containsEntry("indisunique", false).containsEntry("indkey", "2");
        assertThat(rows("pg_catalog", "pg_constraint")).singleElement().satisfies(c -> assertThat(c)
                .containsEntry("conname", "t_pkey").containsEntry("contype", "p").containsEntry("conrelid", 16384)
                .containsEntry("conindid", pkIndex).containsEntry("conkey", "{1}"));
    }

    @Test
    void aUniqueIndexIsUniqueButNotPrimary() {
        Catalog withUnique = catalog.withIndex(new IndexDef(1003, "t_c_key", 1000, "t", List.of("\"c\""), "default", true));
        PgRelationModel model = PgRelationModel.of(withUnique);
        PgRelationModel.Relation index = model.byName("t_c_key").orElseThrow();
        assertThat(index.unique()).isTrue();
        assertThat(index.primaryKey()).isFalse();
        assertThat(model.indexDef(index, false)).isEqualTo("CREATE UNIQUE INDEX t_c_key ON public.t USING btree (c)");
        Map<String, Object> pgIndex = PgCatalogRows.rows(PgCatalog.relation("pg_catalog", "pg_index").id(), withUnique)
                .stream().filter(r -> r.get(0).equals(PgCatalog.oid(1003, Slot.RELATION))).findFirst()
                .map(r -> Map.<String, Object>of("indisunique", r.get(columnIndex("pg_index", "indisunique")),
                        "indisprimary", r.get(columnIndex("pg_index", "indisprimary")))).orElseThrow();
        assertThat(pgIndex).containsEntry("indisunique", true).containsEntry("indisprimary", false);
    }

    private static int columnIndex(String relation, String column) {
        return PgCatalog.relation("pg_catalog", relation).def().columnNames().indexOf(column);
    }

    @Test
    void columnsCarryTypesTypmodsNullabilityAndDefaults() {
        var atts = rows("pg_catalog", "pg_attribute").stream().filter(a -> a.get("attrelid").equals(16384)).toList();
        assertThat(atts).extracting(a -> a.get("attname")).containsExactly("a", "b", "c");
        assertThat(atts.get(0)).containsEntry("atttypid", 23).containsEntry("attnotnull", true).containsEntry("attnum", (short) 1);
        assertThat(atts.get(2)).containsEntry("atttypid", 1700).containsEntry("atttypmod", (10 << 16 | 2) + 4)
                .containsEntry("atthasdef", true).containsEntry("attstorage", "m");
        assertThat(rows("pg_catalog", "pg_attrdef")).singleElement().satisfies(d -> assertThat(d)
                .containsEntry("adrelid", 16384).containsEntry("adnum", (short) 3).containsEntry("adbin", "3.00"));
    }

    @Test
    void typesAreBuiltInsPlusARowTypeAndArrayTypePerRelation() {
        var types = by("oid", rows("pg_catalog", "pg_type"));
        assertThat(types.get(23)).containsEntry("typname", "int4").containsEntry("typlen", (short) 4)
                .containsEntry("typarray", 1007);
        assertThat(types.get(PgCatalog.oid(1000, Slot.ROW_TYPE))).containsEntry("typname", "t")
                .containsEntry("typtype", "c").containsEntry("typrelid", 16384);
        assertThat(types.get(PgCatalog.oid(1000, Slot.ARRAY_TYPE))).containsEntry("typname", "_t")
                .containsEntry("typelem", PgCatalog.oid(1000, Slot.ROW_TYPE));
        assertThat(types.values()).filteredOn(r -> r.get("typrelid").equals(0)).hasSize(403 + 2);
    }

    @Test
    void informationSchemaListsTablesViewsColumnsAndKeys() {
        assertThat(rows("information_schema", "tables")).filteredOn(r -> r.get("table_schema").equals("public"))
                .extracting(r -> r.get("table_name") + ":" + r.get("table_type"))
                .containsExactlyInAnyOrder("t:BASE TABLE", "v:VIEW");
        assertThat(rows("information_schema", "columns")).filteredOn(r -> r.get("table_name").equals("t"))
                .extracting(r -> r.get("column_name") + ":" + r.get("data_type") + ":" + r.get("is_nullable"))
                .containsExactly("a:integer:NO", "b:text:YES", "c:numeric:YES");
        assertThat(rows("information_schema", "key_column_usage")).singleElement().satisfies(k -> assertThat(k)
                .containsEntry("constraint_name", "t_pkey").containsEntry("column_name", "a")
                .containsEntry("ordinal_position", 1));
        assertThat(rows("information_schema", "table_constraints"))
                .extracting(r -> r.get("constraint_name") + ":" + r.get("constraint_type"))
                .containsExactlyInAnyOrder("t_pkey:PRIMARY KEY", "2200_16384_1_not_null:CHECK");
    }

    @Test
    void indexDefinitionsSpellKeysAsPostgresDoes() {
        Catalog withExpressions = catalog.withIndex(new IndexDef(1003, "t_expr", 1000, "t",
                List.of("a + 1", "lower(b)", "\"b\""), "default"));
        PgRelationModel model = PgRelationModel.of(withExpressions);
        PgRelationModel.Relation index = model.byName("t_expr").orElseThrow();
        assertThat(index.keyAttnums()).containsExactly(0, 0, 2);
        assertThat(model.indexDef(index, false)).isEqualTo("CREATE INDEX t_expr ON public.t USING btree ((a + 1), lower(b), b)");
        assertThat(model.indexDef(model.byName("t_pkey").orElseThrow(), true))
                .isEqualTo("CREATE UNIQUE INDEX t_pkey ON t USING btree (a)");
    }

    @Test
    void regclassNamesResolveLikeTheSearchPath() {
        PgRelationModel model = PgRelationModel.of(catalog);
        assertThat(model.byName("t")).get().extracting(PgRelationModel.Relation::oid).isEqualTo(16384);
        assertThat(model.byName("public.t")).get().extracting(PgRelationModel.Relation::oid).isEqualTo(16384);
        assertThat(model.byName("\"t\"")).isPresent();
        assertThat(model.byName("T")).isPresent();
        assertThat(model.byName("\"T\"")).isEmpty();
        assertThat(model.byName("pg_class")).get().extracting(PgRelationModel.Relation::oid).isEqualTo(1259);
        assertThat(model.byName("tables")).isEmpty();
        assertThat(model.byName("information_schema.tables")).isPresent();
    }
}
