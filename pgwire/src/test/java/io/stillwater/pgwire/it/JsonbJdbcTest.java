package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PGobject;

/**
 * jsonb through pgjdbc: {@code setObject} with a {@code PGobject} of type jsonb, results
 * in text and binary (version byte 1 + text) as {@code PGobject}s with PostgreSQL's
 * canonical text, OID 3802 in RowDescription, and jsonb columns surviving a restart.
 */
class JsonbJdbcTest {
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

    private static PGobject jsonb(String text) throws SQLException {
        PGobject o = new PGobject();
        o.setType("jsonb");
        o.setValue(text);
        return o;
    }

    @Test
    void jsonbParametersAndResultsInTextAndBinary() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE jb_rt (id int, doc jsonb)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jb_rt VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, jsonb("{\"b\": [1.50, null], \"a\":\"x\\\"y\"}"));
                ps.executeUpdate();
            }
        }
        for (boolean binary : new boolean[] {false, true}) {
            try (Connection c = binary ? db.connectBinary() : db.connect();
                 PreparedStatement ps = c.prepareStatement(
                         "SELECT doc, doc -> 'b', doc ->> 'a', doc @> ? FROM jb_rt WHERE id = ?")) {
                for (int run = 0; run < 6; run++) {
                    ps.setObject(1, jsonb("{\"a\": \"x\\\"y\"}"));
                    ps.setInt(2, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        Object doc = rs.getObject(1);
                        assertThat(doc).as("binary=%s", binary).isInstanceOf(PGobject.class);
                        assertThat(((PGobject) doc).getType()).isEqualTo("jsonb");
                        assertThat(((PGobject) doc).getValue()).isEqualTo("{\"a\": \"x\\\"y\", \"b\": [1.50, null]}");
                        assertThat(rs.getString(2)).isEqualTo("[1.50, null]");
                        assertThat(rs.getString(3)).isEqualTo("x\"y");
                        assertThat(rs.getBoolean(4)).isTrue();
                        assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("jsonb");
                    }
                }
            }
        }
    }

    @Test
    void jsonbColumnsSurviveRestart() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE jb_durable (id int, doc jsonb)",
                    "INSERT INTO jb_durable VALUES (1, '{\"k\": [1, {\"z\": 2.0}]}'), (2, 'null'), (3, NULL)");
        }
        db.restart();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT doc, jsonb_typeof(doc) FROM jb_durable ORDER BY id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("{\"k\": [1, {\"z\": 2.0}]}");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("null");
            assertThat(rs.getString(2)).isEqualTo("null");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isNull();
        }
    }
}
