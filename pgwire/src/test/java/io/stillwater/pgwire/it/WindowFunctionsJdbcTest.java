package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Window functions and DISTINCT ON through pgjdbc (issue 14): prepared statements with
 * parameters inside window calls, their result types in binary (bigint row_number, float8
 * percent_rank), a materialized view with window functions kept up to date by INSERT and
 * DELETE on a data-parallel replica, and PostgreSQL's SQLSTATEs for misplaced window
 * functions and DISTINCT ON mismatches.
 */
class WindowFunctionsJdbcTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() throws SQLException {
        db = new EmbeddedStillwater(2); // two workers: partitions are exchanged between them
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE scores (player text, game int, points int)");
            s.execute("INSERT INTO scores VALUES ('ann', 1, 10), ('ann', 2, 30), ('ann', 3, 20), "
                    + "('bob', 1, 5), ('bob', 2, 5), ('cy', 1, NULL)");
        }
    }

    @AfterAll
    static void stop() { db.close(); }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return collect(rs);
        }
    }

    private static List<String> collect(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= n; i++) row.append(i > 1 ? "|" : "").append(rs.getString(i));
            out.add(row.toString());
        }
        return out;
    }

    @Test
    void preparedWindowQueriesWithParametersAndBinaryTypes() throws SQLException {
        try (Connection c = db.connectBinary();
             PreparedStatement ps = c.prepareStatement("SELECT game, row_number() OVER (ORDER BY game DESC), "
                     + "lag(points, 1, ?) OVER (ORDER BY game), percent_rank() OVER (ORDER BY points) "
                     + "FROM scores WHERE player = ? ORDER BY game")) {
            ps.setInt(1, -1);
            ps.setString(2, "ann");
            for (int round = 0; round < 2; round++) { // prepared once, executed twice
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("int8");
                    assertThat(rs.getMetaData().getColumnTypeName(4)).isEqualTo("float8");
                    List<String> got = new ArrayList<>();
                    while (rs.next()) {
                        got.add(rs.getInt(1) + " " + rs.getLong(2) + " " + rs.getInt(3) + " " + rs.getDouble(4));
                    }
                    assertThat(got).containsExactly("1 3 -1 0.0", "2 2 10 1.0", "3 1 30 0.5");
                }
            }
        }
    }

    @Test
    void distinctOnPicksTheFirstRowPerGroup() throws SQLException {
        try (Connection c = db.connect()) {
            assertThat(rows(c, "SELECT DISTINCT ON (player) player, game, points FROM scores "
                    + "ORDER BY player, points DESC NULLS LAST, game"))
                    .containsExactly("ann|2|30", "bob|1|5", "cy|1|null");
        }
    }

    @Test
    void materializedViewWithWindowFunctionsFollowsInsertsAndDeletes() throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE laps (car text, lap int, secs int)");
            s.execute("INSERT INTO laps VALUES ('a', 1, 60), ('a', 2, 58), ('b', 1, 61)");
            s.execute("CREATE MATERIALIZED VIEW standings AS SELECT car, lap, "
                    + "rank() OVER (PARTITION BY lap ORDER BY secs) AS pos, "
                    + "sum(secs) OVER (PARTITION BY car ORDER BY lap) AS total FROM laps");
            String q = "SELECT car, lap, pos, total FROM standings ORDER BY lap, pos, car";
            assertThat(rows(c, q)).containsExactly("a|1|1|60", "b|1|2|61", "a|2|1|118");

            // A faster lap 1 pushes the others down; lap 2 gets a new leader.
            s.executeUpdate("INSERT INTO laps VALUES ('c', 1, 59), ('b', 2, 57)");
            assertThat(rows(c, q)).containsExactly("c|1|1|59", "a|1|2|60", "b|1|3|61", "b|2|1|118", "a|2|2|118");

            assertThat(s.executeUpdate("DELETE FROM laps WHERE car = 'c'")).isEqualTo(1);
            assertThat(rows(c, q)).containsExactly("a|1|1|60", "b|1|2|61", "b|2|1|118", "a|2|2|118");
        }
    }

    @Test
    void misplacedWindowFunctionsAndDistinctOnMismatchHavePostgresqlStates() throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            SQLException where = catchThrowableOfType(SQLException.class,
                    () -> s.executeQuery("SELECT player FROM scores WHERE rank() OVER (ORDER BY points) = 1"));
            assertThat(where.getSQLState()).isEqualTo("42P20");
            assertThat(where.getMessage()).contains("window functions are not allowed in WHERE");
            SQLException on = catchThrowableOfType(SQLException.class,
                    () -> s.executeQuery("SELECT DISTINCT ON (player) player FROM scores ORDER BY game, player"));
            assertThat(on.getSQLState()).isEqualTo("42P10");
        }
    }
}
