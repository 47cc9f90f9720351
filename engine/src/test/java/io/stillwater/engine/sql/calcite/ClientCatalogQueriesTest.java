package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The client catalog queries with array features are respelled; other queries are untouched. */
class ClientCatalogQueriesTest {
    /** pgjdbc 42.7's getPrimaryKeys, as it sends it. */
    private static final String PRIMARY_KEYS = "SELECT        result.TABLE_CAT AS \"TABLE_CAT\",        result.KEY_SEQ AS \"KEY_SEQ\" "
            + "FROM      (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM,   ct.relname AS TABLE_NAME, "
            + "a.attname AS COLUMN_NAME,   (information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ, con.conname AS PK_NAME,"
            + "   information_schema._pg_expandarray(con.conkey) AS KEYS, a.attnum AS A_ATTNUM FROM pg_catalog.pg_constraint con"
            + "   JOIN pg_catalog.pg_class ct ON (con.conrelid = ct.oid) WHERE con.contype = 'p' ) result"
            + " where  result.A_ATTNUM = (result.KEYS).x  ORDER BY result.table_name, result.pk_name, result.key_seq";

    @Test
    void primaryKeysJoinTheKeyColumnsInsteadOfExpandingAnArray() {
        String out = ClientCatalogQueries.rewrite(PRIMARY_KEYS);
        assertThat(out).doesNotContain("_pg_expandarray", "(result.KEYS).x")
                .contains("k.n AS KEY_SEQ", "JOIN pg_catalog.stillwater_key_columns k ON (k.keyoid = con.oid)",
                        "result.A_ATTNUM = result.KEYS");
    }

    @Test
    void psqlFragmentsMatchWhateverTheWhitespace() {
        String du = "SELECT r.rolname,\n  ARRAY(SELECT b.rolname\n        FROM pg_catalog.pg_auth_members m\n"
                + "        JOIN pg_catalog.pg_roles b ON (m.roleid = b.oid)\n        WHERE m.member = r.oid) as memberof\n"
                + "FROM pg_catalog.pg_roles r";
        assertThat(ClientCatalogQueries.rewrite(du))
                .isEqualTo("SELECT r.rolname,\n  CAST('{}' AS text) as memberof\nFROM pg_catalog.pg_roles r");
        assertThat(ClientCatalogQueries.rewrite("SELECT pg_catalog.array_to_string(n.nspacl, E'\\n') AS \"Access privileges\" "
                + "FROM pg_catalog.pg_namespace n")).isEqualTo("SELECT n.nspacl AS \"Access privileges\" FROM pg_catalog.pg_namespace n");
        assertThat(ClientCatalogQueries.rewrite("SELECT 'd' = any(stxkind) AS ndist_enabled FROM pg_catalog.pg_statistic_ext"))
                .isEqualTo("SELECT false AS ndist_enabled FROM pg_catalog.pg_statistic_ext");
    }

    @Test
    void otherQueriesAreUntouched() {
        String sql = "SELECT a, ARRAY(SELECT 1) FROM pg_class WHERE relname = 'row_number() OVER'";
        assertThat(ClientCatalogQueries.rewrite(sql)).isSameAs(sql);
        assertThat(ClientCatalogQueries.rewrite("SELECT 1")).isSameAs("SELECT 1");
    }
}
