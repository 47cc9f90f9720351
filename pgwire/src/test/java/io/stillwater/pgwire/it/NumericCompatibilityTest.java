package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import io.stillwater.targets.ThrowawayPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Type unification and numeric results against a real PostgreSQL 15: each statement of
 * {@code compat/numeric-types.sql} (data: one statement a line, easy to extend) runs on
 * Stillwater and on a throwaway PostgreSQL, over pgjdbc, and the outcomes must be equal:
 * every column's type name and the text of every value, the update count, or the SQLSTATE
 * of an error (messages are not compared). The file runs twice, once with pgjdbc's extended
 * protocol and once with the simple protocol, so both the fresh planner and the plan cache's
 * lifted-literal path are held to PostgreSQL's answers.
 *
 * <p>A line marked {@code [0A000]} must be refused by Stillwater with 0A000, one marked
 * {@code [types]} must give PostgreSQL's values under different type names, and one marked
 * {@code [differs]} must still differ (a known wrong result): all are documented in
 * docs/sql.md, and checked so that a fix shows up as a failure and the marker goes.
 *
 * <p>PostgreSQL comes from {@link ThrowawayPostgres}; when its binaries are missing the
 * test fails saying what to install, as {@code CatalogCompatibilityTest} does.
 */
class NumericCompatibilityTest {
    private static final String STATEMENTS = "/compat/numeric-types.sql";
    private static final Pattern MARKER = Pattern.compile("^\\[(0A000|types|differs)]\\s*(.*)$");
    private static final Pattern CREATE_TABLE = Pattern.compile("(?i)^CREATE TABLE (\\w+)");

    static EmbeddedStillwater sw;
    static ThrowawayPostgres pg;

    @BeforeAll
    static void start() throws Exception {
        sw = new EmbeddedStillwater();
        pg = ThrowawayPostgres.start();
    }

    @AfterAll
    static void stop() {
        if (pg != null) pg.close();
        if (sw != null) sw.close();
    }

    /** One line of the file: the statement and what difference, if any, is documented. */
    record Case(int line, String sql, String marker) {
        @Override
        public String toString() { return "line " + line + ": " + (marker == null ? "" : "[" + marker + "] ") + sql; }
    }

    @TestFactory
    Stream<DynamicTest> extendedProtocol() throws Exception {
        return pass("extended");
    }

    @TestFactory
    Stream<DynamicTest> simpleProtocol() throws Exception {
        return pass("simple");
    }

    /**
     * The whole file in order on a fresh pair of connections using {@code mode}, then a
     * DROP of every table it created (so the other pass starts from the same state).
     */
    private Stream<DynamicTest> pass(String mode) throws Exception {
        List<Case> cases = cases();
        Connection swc = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + sw.port()
                + "/materialize?preferQueryMode=" + mode, "materialize", "");
        Connection pgc = DriverManager.getConnection(pg.jdbcUrl() + "?preferQueryMode=" + mode, pg.user(), "");
        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : cases) {
            tests.add(DynamicTest.dynamicTest(c.toString(), () -> check(c, outcome(pgc, c.sql()), outcome(swc, c.sql()))));
        }
        tests.add(DynamicTest.dynamicTest("drop the tables", () -> {
            try (swc; pgc) {
                for (Case c : cases) {
                    Matcher m = CREATE_TABLE.matcher(c.sql());
                    if (!m.find()) continue;
                    for (Connection conn : List.of(swc, pgc)) {
                        try (Statement s = conn.createStatement()) {
                            s.execute("DROP TABLE " + m.group(1));
                        }
                    }
                }
            }
        }));
        return tests.stream();
    }

    private static void check(Case c, Outcome postgres, Outcome stillwater) {
        if (c.marker() == null) {
            assertThat(stillwater).as("Stillwater vs PostgreSQL 15").isEqualTo(postgres);
        } else if (c.marker().equals("0A000")) {
            assertThat(postgres.error()).as("PostgreSQL answers").isNull();
            assertThat(stillwater.error()).as("Stillwater refuses (documented in docs/sql.md)").isEqualTo("0A000");
        } else if (c.marker().equals("differs")) {
            assertThat(stillwater).as("still the known wrong result (docs/sql.md)").isNotEqualTo(postgres);
        } else {
            assertThat(stillwater.rows()).as("values").isEqualTo(postgres.rows());
            assertThat(stillwater.types()).as("type names still differ (docs/sql.md)").isNotEqualTo(postgres.types());
        }
    }

    /** What a statement did: column type names and rows as text, an update count, or an error's SQLSTATE. */
    record Outcome(List<String> types, List<List<String>> rows, int updateCount, String error) {
        @Override
        public String toString() {
            if (error != null) return "ERROR " + error;
            if (types == null) return "update count " + updateCount;
            return types + " " + rows;
        }
    }

    private static Outcome outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            if (!s.execute(sql)) return new Outcome(null, null, s.getUpdateCount(), null);
            try (ResultSet rs = s.getResultSet()) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> types = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) types.add(md.getColumnTypeName(i));
                List<List<String>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String v = rs.getString(i);
                        row.add(v == null ? "NULL" : v);
                    }
                    rows.add(row);
                }
                return new Outcome(types, rows, -1, null);
            }
        } catch (SQLException e) {
            return new Outcome(null, null, -1, e.getSQLState());
        }
    }

    /** The file's statements: blank lines and {@code --} comment lines skipped. */
    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = NumericCompatibilityTest.class.getResourceAsStream(STATEMENTS)) {
            assertThat(in).as(STATEMENTS).isNotNull();
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty() || line.startsWith("--")) continue;
                Matcher m = MARKER.matcher(line);
                String marker = m.matches() ? m.group(1) : null;
                String sql = m.matches() ? m.group(2) : line;
                cases.add(new Case(i + 1, sql, marker));
            }
        }
        return cases;
    }
}
