package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arrays through pgjdbc: {@code getArray} of text and binary results, {@code setArray}
 * and {@code createArrayOf} parameters (also for {@code = ANY(?)}), PostgreSQL's array
 * type OIDs in RowDescription, and array columns surviving a restart.
 */
class ArrayJdbcTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    private static Object[] array(ResultSet rs, int column) throws SQLException {
        Array a = rs.getArray(column);
        return a == null ? null : (Object[]) a.getArray();
    }

    @Test
    void arraysRoundTripInTextAndBinary() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE arr_rt (id int, xs int[], ts text[], ns numeric[], bs bigint[])");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO arr_rt VALUES (?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setArray(2, c.createArrayOf("integer", new Integer[] {1, null, 3}));
                ps.setArray(3, c.createArrayOf("text", new String[] {"a b", "x\"y", "", null, "NULL"}));
                ps.setArray(4, c.createArrayOf("numeric", new BigDecimal[] {new BigDecimal("1.50"), BigDecimal.TEN}));
                ps.setArray(5, c.createArrayOf("bigint", new Long[] {Long.MAX_VALUE}));
                ps.executeUpdate();
            }
        }
        for (boolean binary : new boolean[] {false, true}) {
            try (Connection c = binary ? db.connectBinary() : db.connect();
                 PreparedStatement ps = c.prepareStatement("SELECT xs, ts, ns, bs, '{}'::int[] FROM arr_rt WHERE id = ?")) {
                for (int run = 0; run < 6; run++) { // past pgjdbc's prepare threshold, so binary results are used
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(array(rs, 1)).as("binary=%s", binary).containsExactly(1, null, 3);
                        assertThat(array(rs, 2)).containsExactly("a b", "x\"y", "", null, "NULL");
                        assertThat(array(rs, 3)).containsExactly(new BigDecimal("1.50"), BigDecimal.TEN);
                        assertThat(array(rs, 4)).containsExactly(Long.MAX_VALUE);
                        assertThat(array(rs, 5)).isEmpty();
                        assertThat(rs.getString(2)).isEqualTo("{\"a b\",\"x\\\"y\",\"\",NULL,\"NULL\"}");
                        assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.ARRAY);
                        assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("_int4");
                        assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("_text");
                    }
                }
            }
        }
    }

    @Test
    void arrayParameterForAny() throws Exception {
        try (Connection c = db.connectBinary()) {
            exec(c, "CREATE TABLE arr_any (id int, tag text)",
                    "INSERT INTO arr_any VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM arr_any WHERE id = ANY(?) ORDER BY id");
                 PreparedStatement ts = c.prepareStatement("SELECT id FROM arr_any WHERE tag <> ALL(?) ORDER BY id")) {
                for (int run = 0; run < 6; run++) {
                    ps.setArray(1, c.createArrayOf("int4", new Integer[] {3, 1, 7}));
                    assertThat(ids(ps)).containsExactly(1, 3);
                    ts.setArray(1, c.createArrayOf("text", new String[] {"a"}));
                    assertThat(ids(ts)).containsExactly(2, 3);
                }
            }
        }
    }

    private static List<Integer> ids(PreparedStatement ps) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }

    @Test
    void arrayColumnsSurviveRestart() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE arr_durable (id int, xs text[], ys int[])",
                    "INSERT INTO arr_durable VALUES (1, '{a,\"b c\",NULL}', '{{1,2},{3,4}}'), (2, '{}', NULL)");
        }
        db.restart();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT xs, ys, pg_typeof(xs) FROM arr_durable ORDER BY id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("{a,\"b c\",NULL}");
            assertThat(rs.getString(2)).isEqualTo("{{1,2},{3,4}}");
            assertThat(rs.getString(3)).isEqualTo("text[]");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("{}");
            assertThat(rs.getString(2)).isNull();
        }
    }
}
