package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import io.stillwater.targets.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * psql 15's {@code \d} family and pgjdbc's {@code DatabaseMetaData} against Stillwater and
 * against a throwaway PostgreSQL 15 holding the same schema: the same column names, the same
 * rows (or, where Stillwater deliberately differs, the same shape).
 *
 * <p>Known differences, normalised here: the owner is {@code materialize} on Stillwater and
 * {@code postgres} on PostgreSQL; a column default is stored coerced to the column type
 * ({@code 3.00} where PostgreSQL shows the expression {@code 3}); Stillwater has one database.
 *
 * <p>Roles and grants ({@link #ACL_SCHEMA}, run by each server's superuser): the roles
 * {@code alice} and {@code bob} exist on both, {@code alice} owns {@code acl_t} and
 * {@code acl_v}, and grants to {@code bob} and PUBLIC are made in the order PostgreSQL
 * lists them (by grantee name, PUBLIC last), so owners and {@code \dp}'s access
 * privileges print the same on both.
 */
class CatalogCompatibilityTest {
    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE t(a int PRIMARY KEY, b text NOT NULL, c numeric(10,2) DEFAULT 3)",
            "CREATE INDEX t_b ON t(b)",
            "CREATE VIEW v AS SELECT a, b FROM t",
            "CREATE MATERIALIZED VIEW m AS SELECT a FROM t",
            "CREATE TABLE plain(x bigint, y varchar(20), z timestamp)");

    /** Roles, owners and grants, run as the superuser (mz_system; postgres). */
    private static final List<String> ACL_SCHEMA = List.of(
            "CREATE ROLE alice LOGIN",
            "CREATE ROLE bob",
            "CREATE TABLE acl_t(k int, v text)",
            "ALTER TABLE acl_t OWNER TO alice",
            "CREATE VIEW acl_v AS SELECT k FROM acl_t",
            "ALTER VIEW acl_v OWNER TO alice",
            "CREATE MATERIALIZED VIEW acl_m AS SELECT k FROM acl_t",
            "ALTER MATERIALIZED VIEW acl_m OWNER TO alice",
            "CREATE INDEX acl_t_k ON acl_t(k)", // by the superuser: still the table owner's
            "CREATE TABLE acl_u(k int)",
            "ALTER TABLE acl_u OWNER TO bob",
            "GRANT SELECT, INSERT ON acl_t TO alice", // the owner's own: no new entry
            "GRANT SELECT, UPDATE ON acl_t TO bob",
            "GRANT SELECT ON acl_t TO PUBLIC",
            "GRANT SELECT ON acl_v TO bob",
            "GRANT DELETE ON acl_u TO alice");

    static EmbeddedStillwater sw;
    static ThrowawayPostgres pg;

    @BeforeAll
    static void start() throws Exception {
        sw = new EmbeddedStillwater();
        pg = ThrowawayPostgres.start();
        for (Connection c : List.of(stillwater(), pg.connect())) {
            try (c; Statement s = c.createStatement()) {
                for (String ddl : SCHEMA) s.execute(ddl);
            }
        }
        Connection sys = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + sw.port() + "/materialize",
                "mz_system", "");
        for (Connection c : List.of(sys, pg.connect())) {
            try (c; Statement s = c.createStatement()) {
                for (String ddl : ACL_SCHEMA) s.execute(ddl);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (pg != null) pg.close();
        if (sw != null) sw.close();
    }

    private static Connection stillwater() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + sw.port() + "/materialize", "materialize", "");
    }

    /** A meta-command's unaligned output (then its exit code and errors) on both servers, owners normalised. */
    private static List<List<String>> psql(String command) throws Exception {
        List<List<String>> both = new ArrayList<>();
        both.add(lines(ClientProcess.psql(sw.port(), "materialize", "materialize", null, "-A", "-c", command),
                "materialize"));
        both.add(lines(ClientProcess.psql(pg.port(), pg.user(), "postgres", null, "-A", "-c", command), "postgres"));
        return both;
    }

    private static List<String> lines(ClientProcess.Result r, String owner) {
        List<String> lines = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            lines.add(line.replace("|" + owner + "|", "|OWNER|").replaceAll("\\|" + owner + "$", "|OWNER"));
        }
        lines.add("exit " + r.exitCode() + ": " + r.err().strip());
        return lines;
    }

    @ParameterizedTest
    @ValueSource(strings = {"\\d", "\\dt", "\\di", "\\dv", "\\dm", "\\dn", "\\df", "\\d v", "\\d m", "\\d t_b", "\\d+ t_b",
            "\\dt+ nothing", "\\d nope", "\\dT", "\\dp", "\\dp acl_*", "\\z acl_t", "\\dt acl_*", "\\dv acl_*", "\\dm acl_*",
            "\\di acl_*"})
    void metaCommandPrintsWhatPostgresPrints(String command) throws Exception {
        List<List<String>> out = psql(command);
        assertThat(out.get(0)).as(command).isEqualTo(out.get(1));
    }

    /** {@code \d t} and {@code \d+ t}: equal but for the Default cell (stored coerced: 3.00, not 3). */
    @ParameterizedTest
    @ValueSource(strings = {"\\d t", "\\d+ t", "\\d plain"})
    void tableDescriptionMatchesButForDefaults(String command) throws Exception {
        List<List<String>> out = psql(command);
        assertThat(withoutDefaults(out.get(0))).as(command).isEqualTo(withoutDefaults(out.get(1)));
        assertThat(out.get(0).get(0)).startsWith("Table \"public.");
        assertThat(out.get(0).get(out.get(0).size() - 1)).isEqualTo("exit 0: ");
    }

    private static List<String> withoutDefaults(List<String> lines) {
        return lines.stream().map(l -> {
            String[] cells = l.split("\\|", -1);
            if (cells.length < 5) return l;
            cells[4] = "";
            return String.join("|", cells);
        }).toList();
    }

    /** {@code \l} and {@code \du}: one database and one role here, so the same columns. */
    @ParameterizedTest
    @ValueSource(strings = {"\\l", "\\du"})
    void databaseAndRoleListsHaveThePostgresColumns(String command) throws Exception {
        List<List<String>> out = psql(command);
        assertThat(out.get(0).get(1)).as(command + " header").isEqualTo(out.get(1).get(1));
        assertThat(out.get(0)).anyMatch(l -> l.startsWith("materialize|"));
    }

    /** {@code \\du}: the roles both servers have print the same attributes. */
    @Test
    void roleListShowsTheSameAttributesForTheSameRoles() throws Exception {
        List<List<String>> out = psql("\\du");
        List<List<String>> roles = out.stream()
                .map(lines -> lines.stream().filter(l -> l.startsWith("alice|") || l.startsWith("bob|")).toList()).toList();
        assertThat(roles.get(0)).hasSize(2).isEqualTo(roles.get(1));
    }

    /** Owners, grants and privilege inquiries through SQL, as a client would ask them. */
    @Test
    void privilegeQueriesGiveWhatPostgresGives() throws SQLException {
        String sql = "SELECT c.relname, pg_get_userbyid(c.relowner), array_to_string(c.relacl, ','),"
                + " has_table_privilege('bob', c.oid, 'SELECT'), has_table_privilege('bob', c.relname, 'UPDATE'),"
                + " has_table_privilege('alice', c.oid, 'DELETE'), has_any_column_privilege('bob', c.oid, 'INSERT')"
                + " FROM pg_class c WHERE c.relname LIKE 'acl%' ORDER BY 1";
        String grants = "SELECT grantor, grantee, table_name, privilege_type, is_grantable, with_hierarchy"
                + " FROM information_schema.table_privileges WHERE table_name LIKE 'acl%'"
                + " AND grantee IN ('alice', 'bob', 'PUBLIC') ORDER BY 3, 2, 4";
        for (String q : List.of(sql, grants, "SELECT grantee, table_name, privilege_type"
                + " FROM information_schema.role_table_grants WHERE table_name LIKE 'acl%' AND grantee = 'bob' ORDER BY 2, 3")) {
            assertThat(rows(stillwater(), q)).as(q).isEqualTo(rows(pg.connect(), q));
        }
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) row.append(rs.getString(i)).append('|');
                out.add(row.toString());
            }
            return out;
        }
    }

    @Test
    void getTablePrivilegesParsesTheSameAcl() throws SQLException {
        sameOnBoth(md -> md.getTablePrivileges(null, "public", "acl_%"), "TABLE_NAME", "GRANTOR", "GRANTEE",
                "PRIVILEGE", "IS_GRANTABLE");
    }

    private interface MetaDataCall {
        ResultSet call(DatabaseMetaData md) throws SQLException;
    }

    /** Column names, and the values of {@code keys} per row (in order); null keys: row count only. */
    private static List<String> shape(Connection c, MetaDataCall call, String... keys) throws SQLException {
        try (c; ResultSet rs = call.call(c.getMetaData())) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> out = new ArrayList<>();
            StringBuilder cols = new StringBuilder("columns:");
            for (int i = 1; i <= md.getColumnCount(); i++) cols.append(' ').append(md.getColumnLabel(i));
            out.add(cols.toString());
            int rows = 0;
            while (rs.next()) {
                rows++;
                if (keys.length == 0) continue;
                StringBuilder row = new StringBuilder();
                for (String k : keys) row.append(rs.getString(k)).append('|');
                out.add(row.toString());
            }
            out.add("rows: " + rows);
            return out;
        }
    }

    private static void sameOnBoth(MetaDataCall call, String... keys) throws SQLException {
        assertThat(shape(stillwater(), call, keys)).isEqualTo(shape(pg.connect(), call, keys));
    }

    @Test
    void getTablesListsTablesAndViews() throws SQLException {
        sameOnBoth(md -> md.getTables(null, "public", "%", new String[] {"TABLE", "VIEW"}), "TABLE_SCHEM", "TABLE_NAME",
                "TABLE_TYPE");
    }

    @Test
    void getSchemasListsPostgresSchemas() throws SQLException {
        sameOnBoth(DatabaseMetaData::getSchemas, "TABLE_SCHEM");
    }

    @Test
    void getColumnsDescribesEachColumn() throws SQLException {
        sameOnBoth(md -> md.getColumns(null, "public", "%", "%"), "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
                "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "ORDINAL_POSITION", "IS_NULLABLE");
    }

    @Test
    void getPrimaryKeysFindsTheDeclaredKey() throws SQLException {
        sameOnBoth(md -> md.getPrimaryKeys(null, "public", "t"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
        sameOnBoth(md -> md.getPrimaryKeys(null, "public", "plain"), "COLUMN_NAME");
    }

    @Test
    void getIndexInfoListsIndexesAndTheirColumns() throws SQLException {
        sameOnBoth(md -> md.getIndexInfo(null, "public", "t", false, false), "INDEX_NAME", "NON_UNIQUE", "COLUMN_NAME",
                "ORDINAL_POSITION", "ASC_OR_DESC");
    }

    @Test
    void getTypeInfoListsPostgresTypes() throws SQLException {
        sameOnBoth(DatabaseMetaData::getTypeInfo);
        Set<String> names = new TreeSet<>();
        try (Connection c = stillwater(); ResultSet rs = c.getMetaData().getTypeInfo()) {
            while (rs.next()) names.add(rs.getString("TYPE_NAME"));
        }
        assertThat(names).contains("int4", "text", "numeric", "timestamptz", "bool", "_int4");
    }

    /**
     * psycopg2's catalog use: {@code register_composite}'s type lookup (pg_type, pg_namespace and
     * pg_attribute through typrelid), type OIDs by name, information_schema, and ::regclass.
     */
    @Test
    void psycopg2CatalogLookupsGiveWhatPostgresGives() throws Exception {
        String script = """
                import os, psycopg2, psycopg2.extras
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True
                caster = psycopg2.extras.CompositeCaster._from_db("t", conn)
                print("composite", caster.name, caster.attnames, caster.oid > 0, caster.array_oid > 0)
                cur = conn.cursor()
                cur.execute("SELECT oid, typname, typarray FROM pg_type WHERE typname IN ('int4', 'text', 'numeric') ORDER BY oid")
                print("types", cur.fetchall())
                cur.execute("SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                            " WHERE table_schema = 'public' AND table_name = 't' ORDER BY ordinal_position")
                print("columns", cur.fetchall())
                cur.execute("SELECT 't'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 't'), 't'::regclass::text")
                print("regclass", cur.fetchall())
                """;
        String onStillwater = ClientProcess.psycopg2(sw.port(), "materialize", "materialize", script).ok();
        String onPostgres = ClientProcess.psycopg2(pg.port(), pg.user(), "postgres", script).ok();
        assertThat(onStillwater).isEqualTo(onPostgres).contains("composite t ['a', 'b', 'c'] True True");
    }

    @Test
    void getCatalogsListsTheOneDatabase() throws SQLException {
        List<String> sw = shape(stillwater(), DatabaseMetaData::getCatalogs, "TABLE_CAT");
        List<String> pgShape = shape(pg.connect(), DatabaseMetaData::getCatalogs, "TABLE_CAT");
        assertThat(sw.get(0)).isEqualTo(pgShape.get(0));
        assertThat(sw).containsExactly("columns: TABLE_CAT", "materialize|", "rows: 1");
    }
}
