package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A declared primary key is recorded in the log: the catalog reports it after a restart, in key order. */
class PrimaryKeyCatalogTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static List<String> primaryKey(String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.connect(); ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", table)) {
            while (rs.next()) out.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("KEY_SEQ") + ":" + rs.getString("PK_NAME"));
        }
        return out;
    }

    @Test
    void primaryKeySurvivesRestartInKeyOrder() throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders(region text, id bigint, note text, PRIMARY KEY (id, region))");
            s.execute("CREATE TABLE keyless(x int)");
        }
        List<String> expected = List.of("id:1:orders_pkey", "region:2:orders_pkey");
        assertThat(primaryKey("orders")).containsExactlyInAnyOrderElementsOf(expected);
        db.restart();
        assertThat(primaryKey("orders")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(primaryKey("keyless")).isEmpty();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_get_constraintdef(oid), pg_get_indexdef(conindid) FROM pg_constraint"
                     + " WHERE conrelid = 'orders'::regclass")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("PRIMARY KEY (id, region)");
            assertThat(rs.getString(2)).isEqualTo("CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (id, region)");
            assertThat(rs.next()).isFalse();
        }
    }
}
