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
 * ({@code 3.00} where PostgreSQL shows the expression {@code 3}); Stillwater has one database
 * and one role.
 */
class CatalogCompatibilityTest {
    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE t(a int PRIMARY KEY, b text NOT NULL, c numeric(10,2) DEFAULT 3)",
            "CREATE INDEX t_b ON t(b)",
            "CREATE VIEW v AS SELECT a, b FROM t",
            "CREATE MATERIALIZED VIEW m AS SELECT a FROM t",
            "CREATE TABLE plain(x bigint, y varchar(20), z timestamp)");

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
            "\\dt+ nothing", "\\d nope", "\\dT", "\\dp"})
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
