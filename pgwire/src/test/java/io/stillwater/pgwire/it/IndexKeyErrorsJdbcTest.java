package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An index whose key expression fails cannot break other users' reads of the table (issue
 * 16): only the table's owner may create an index on it (42501 for anyone else); CREATE
 * INDEX ON t ((1/0)) on a table with rows fails with 22012 and creates nothing; an index
 * created on an empty table whose key later fails on an inserted row is skipped by reads
 * of the table (they succeed, for the owner and for a role granted SELECT), while a read
 * that evaluates the failing expression itself still fails.
 */
class IndexKeyErrorsJdbcTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static Connection as(String user) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + db.port() + "/materialize?user=" + user);
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) row.append(i > 1 ? "|" : "").append(rs.getString(i));
                out.add(row.toString());
            }
        }
        return out;
    }

    @Test
    void failingIndexOnATableWithRowsIsRefusedAndReadsGoOn() throws Exception {
        try (Connection alice = as("alice"); Connection mallory = as("mallory");
             Statement a = alice.createStatement(); Statement m = mallory.createStatement()) {
            a.execute("CREATE TABLE accounts (id int, balance int)");
            a.execute("INSERT INTO accounts VALUES (1, 100), (2, 0)");
            assertThatThrownBy(() -> m.execute("CREATE INDEX broken ON accounts ((1/0))"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"));
            assertThatThrownBy(() -> a.execute("CREATE INDEX broken ON accounts ((1/0))"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("22012");
                        assertThat(e.getMessage()).contains("division by zero");
                    });
            assertThatThrownBy(() -> a.execute("CREATE INDEX broken ON accounts ((id / balance))"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
            assertThat(rows(a, "SELECT name FROM mz_catalog.mz_indexes WHERE name = 'broken'")).isEmpty();
            assertThat(rows(a, "SELECT id, balance FROM accounts ORDER BY id")).containsExactly("1|100", "2|0");
        }
    }

    @Test
    void indexWhoseKeyFailsLaterIsSkippedByOtherReads() throws Exception {
        try (Connection alice = as("alice"); Connection mallory = as("mallory");
             Statement a = alice.createStatement(); Statement m = mallory.createStatement()) {
            a.execute("CREATE TABLE ledger (id int, amount int)");
            a.execute("GRANT SELECT ON ledger TO mallory");
            a.execute("CREATE INDEX ledger_inverse ON ledger ((1000 / amount))");
            a.execute("INSERT INTO ledger VALUES (1, 10), (2, 0)");
            // Reads of both roles: a walk, an aggregate and a filter, none needing the erring index.
            for (Statement reader : List.of(a, m)) {
                assertThat(rows(reader, "SELECT id, amount FROM ledger ORDER BY id")).containsExactly("1|10", "2|0");
                assertThat(rows(reader, "SELECT count(*) FROM ledger")).containsExactly("2");
                assertThat(rows(reader, "SELECT amount FROM ledger WHERE id = 2")).containsExactly("0");
            }
            // A read that evaluates the failing expression fails, for whoever runs it.
            assertThatThrownBy(() -> rows(m, "SELECT id FROM ledger WHERE 1000 / amount = 100"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
            // Removing the row heals the index, and lookups through it work.
            a.execute("DELETE FROM ledger WHERE amount = 0");
            assertThat(rows(m, "SELECT id FROM ledger WHERE 1000 / amount = 100")).containsExactly("1");
        }
    }
}
