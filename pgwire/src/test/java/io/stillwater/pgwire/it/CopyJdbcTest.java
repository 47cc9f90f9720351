package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;

/**
 * COPY through pgjdbc's {@link CopyManager}: copyIn and copyOut in text and CSV, the
 * error of a bad line naming it (SQLSTATE and CONTEXT, the connection still usable), a
 * bad line 1000 leaving the table unchanged, an abandoned COPY (CopyFail) writing nothing.
 */
class CopyJdbcTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static CopyManager copy(Connection c) throws SQLException { return c.unwrap(PGConnection.class).getCopyAPI(); }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void copyInAndOutInTextAndCsv() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cj_rows (id INT, name TEXT, amount NUMERIC(10,2), at TIMESTAMP)");
            long n = copy(c).copyIn("COPY cj_rows FROM STDIN",
                    new StringReader("1\tone\t1.5\t2024-01-02 03:04:05\n2\t\\N\t\\N\t\\N\n"));
            assertThat(n).isEqualTo(2);
            n = copy(c).copyIn("COPY cj_rows (id, name) FROM STDIN WITH (FORMAT csv, HEADER)",
                    new StringReader("id,name\n3,\"three, with comma\"\n"));
            assertThat(n).isEqualTo(1);
            StringWriter text = new StringWriter();
            assertThat(copy(c).copyOut("COPY (SELECT * FROM cj_rows ORDER BY id) TO STDOUT", text)).isEqualTo(3);
            assertThat(text.toString()).isEqualTo(
                    "1\tone\t1.50\t2024-01-02 03:04:05\n2\t\\N\t\\N\t\\N\n3\tthree, with comma\t\\N\t\\N\n");
            StringWriter csv = new StringWriter();
            copy(c).copyOut("COPY (SELECT id, name FROM cj_rows ORDER BY id) TO STDOUT (FORMAT csv, HEADER)", csv);
            assertThat(csv.toString()).isEqualTo("id,name\n1,one\n2,\n3,\"three, with comma\"\n");
        }
    }

    @Test
    void aBadLineIsNamedAndLeavesTheTableUnchanged() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cj_atomic (a INT, b INT)");
            s.execute("INSERT INTO cj_atomic VALUES (0, 0)");
            StringBuilder data = new StringBuilder();
            for (int i = 1; i < 1000; i++) data.append(i).append(',').append(i * 2).append('\n');
            data.append("1000,oops\n");
            for (int i = 1001; i <= 1100; i++) data.append(i).append(',').append(i).append('\n');
            assertThatThrownBy(() -> copy(c).copyIn("COPY cj_atomic FROM STDIN (FORMAT csv)",
                    new StringReader(data.toString())))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("22P02");
                        assertThat(e.getServerErrorMessage().getMessage())
                                .isEqualTo("invalid input syntax for type integer: \"oops\"");
                        assertThat(e.getServerErrorMessage().getWhere())
                                .isEqualTo("COPY cj_atomic, line 1000, column b: \"oops\"");
                    });
            assertThat(count(c, "cj_atomic")).as("no row of the failed COPY is written").isEqualTo(1);
            // The connection carries on.
            assertThat(copy(c).copyIn("COPY cj_atomic FROM STDIN (FORMAT csv)", new StringReader("5,5\n")))
                    .isEqualTo(1);
            assertThat(count(c, "cj_atomic")).isEqualTo(2);
        }
    }

    @Test
    void anAbandonedCopyWritesNothing() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cj_cancel (a INT)");
            CopyIn in = copy(c).copyIn("COPY cj_cancel FROM STDIN");
            byte[] rows = "1\n2\n3\n".getBytes();
            in.writeToCopy(rows, 0, rows.length);
            in.cancelCopy();
            assertThat(count(c, "cj_cancel")).isZero();
        }
    }

    @Test
    void insideATransactionTheCopyCommitsWithIt() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cj_txn (a INT)");
            c.setAutoCommit(false);
            copy(c).copyIn("COPY cj_txn FROM STDIN", new StringReader("1\n2\n"));
            c.rollback();
            copy(c).copyIn("COPY cj_txn FROM STDIN", new StringReader("3\n"));
            c.commit();
            c.setAutoCommit(true);
            assertThat(count(c, "cj_txn")).isEqualTo(1);
        }
    }
}
