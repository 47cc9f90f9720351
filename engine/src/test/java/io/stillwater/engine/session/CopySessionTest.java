package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY FROM STDIN / TO STDOUT through the Session API: rows, errors with their line, atomicity. */
class CopySessionTest extends SessionTestBase {

    /** Runs a COPY FROM STDIN, sending {@code data} in chunks of {@code chunk} bytes; returns the tag. */
    private String copyIn(String sql, String data, int chunk) {
        ExecutionResult r = s.execute(sql);
        assertThat(r).isInstanceOf(ExecutionResult.CopyIn.class);
        CopyInTarget target = ((ExecutionResult.CopyIn) r).target();
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += chunk) {
            byte[] part = new byte[Math.min(chunk, bytes.length - i)];
            System.arraycopy(bytes, i, part, 0, part.length);
            target.data(part);
        }
        return target.done().tag();
    }

    private String copyOut(String sql) {
        ExecutionResult r = s.execute(sql);
        assertThat(r).isInstanceOf(ExecutionResult.CopyOut.class);
        ExecutionResult.CopyOut out = (ExecutionResult.CopyOut) r;
        StringBuilder text = new StringBuilder();
        byte[] header = out.encoder().header();
        if (header != null) text.append(new String(header, StandardCharsets.UTF_8));
        try (RowStream rows = out.rows()) {
            for (Row row : rows.drain()) text.append(new String(out.encoder().row(row), StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    @Test
    void textFormatInAnyChunkingWithEscapesAndDefaults() {
        s.execute("CREATE TABLE t (a INT, b TEXT, c INT DEFAULT 7)");
        String data = "1\tone\\ttab\n2\t\\N\n3\t\\x41\\101\\\\\n\\.\nignored after the end marker\n";
        for (int chunk : new int[] {1, 3, 1000}) {
            s.execute("DELETE FROM t");
            assertThat(copyIn("COPY t (a, b) FROM STDIN", data, chunk)).isEqualTo("COPY 3");
            assertThat(q("SELECT a, b, c FROM t ORDER BY a")).containsExactly(
                    List.of("1", "one\ttab", "7"), java.util.Arrays.asList("2", null, "7"), List.of("3", "AA\\", "7"));
        }
    }

    @Test
    void csvWithHeaderQuotesAndNewlinesInsideQuotes() {
        s.execute("CREATE TABLE t (a INT, b TEXT)");
        String data = "a,b\r\n1,\"x, \"\"y\"\"\"\r\n2,\"two\nlines\"\r\n3,\r\n4,\"\"\r\n";
        assertThat(copyIn("COPY t FROM STDIN WITH (FORMAT csv, HEADER true)", data, 2)).isEqualTo("COPY 4");
        assertThat(q("SELECT a, b, b IS NULL FROM t ORDER BY a")).containsExactly(
                List.of("1", "x, \"y\"", "f"), List.of("2", "two\nlines", "f"),
                java.util.Arrays.asList("3", null, "t"), List.of("4", "", "f"));
        assertThat(copyOut("COPY (SELECT * FROM t ORDER BY a) TO STDOUT WITH CSV HEADER"))
                .isEqualTo("a,b\n1,\"x, \"\"y\"\"\"\n2,\"two\nlines\"\n3,\n4,\"\"\n");
    }

    @Test
    void textOutputEscapesLikePostgres() {
        s.execute("CREATE TABLE t (a INT, b TEXT)");
        s.execute("INSERT INTO t VALUES (1, 'a\\b'), (2, NULL), (3, 'tab' || chr(9) || 'nl' || chr(10))");
        assertThat(copyOut("COPY (SELECT * FROM t ORDER BY a) TO STDOUT"))
                .isEqualTo("1\ta\\\\b\n2\t\\N\n3\ttab\\tnl\\n\n");
        assertThat(copyOut("COPY t (b) TO STDOUT (FORMAT csv, FORCE_QUOTE *, NULL 'NULL')").lines().toList())
                .containsExactlyInAnyOrder("\"a\\b\"", "\"tab\tnl", "NULL", "\"");
    }

    @Test
    void aBadValueNamesItsLineAndColumnAndNothingIsWritten() {
        s.execute("CREATE TABLE t (a INT, b INT NOT NULL)");
        StringBuilder data = new StringBuilder();
        for (int i = 1; i < 1000; i++) data.append(i).append('\t').append(i).append('\n');
        data.append("1000\tx\n");
        assertThatThrownBy(() -> copyIn("COPY t FROM STDIN", data.toString(), 4096))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state().code()).isEqualTo("22P02");
                    assertThat(e.getMessage()).isEqualTo("invalid input syntax for type integer: \"x\"");
                    assertThat(e.context()).isEqualTo("COPY t, line 1000, column b: \"x\"");
                });
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("0"));
    }

    @Test
    void fieldCountAndNotNullErrorsNameTheLine() {
        s.execute("CREATE TABLE t (a INT, b INT NOT NULL)");
        assertCopyError("1\t2\t3\n", "22P04", "extra data after last expected column", "COPY t, line 1: \"1\t2\t3\"");
        assertCopyError("1\t2\n5\n", "22P04", "missing data for column \"b\"", "COPY t, line 2: \"5\"");
        assertCopyError("1\t\\N\n", "23502", "null value in column \"b\" of relation \"t\" violates not-null constraint",
                "COPY t, line 1: \"1\t\\N\"");
        assertCopyError("1\t99999999999\n", "22003", "value \"99999999999\" is out of range for type integer",
                "COPY t, line 1, column b: \"99999999999\"");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("0"));
    }

    private void assertCopyError(String data, String state, String message, String context) {
        assertThatThrownBy(() -> copyIn("COPY t FROM STDIN", data, 1))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state().code()).isEqualTo(state);
                    assertThat(e.getMessage()).isEqualTo(message);
                    assertThat(e.context()).isEqualTo(context);
                });
    }

    @Test
    void invalidUtf8IsRejected() {
        s.execute("CREATE TABLE t (b TEXT)");
        ExecutionResult.CopyIn copy = (ExecutionResult.CopyIn) s.execute("COPY t FROM STDIN");
        assertThatThrownBy(() -> {
            copy.target().data(new byte[] {'o', 'k', '\n', (byte) 0xC3, '(', '\n'});
            copy.target().done();
        }).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state().code()).isEqualTo("22021");
            assertThat(e.context()).startsWith("COPY t, line 2");
        });
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("0"));
    }

    @Test
    void insideATransactionTheCopyIsPartOfIt() {
        s.execute("CREATE TABLE t (a INT)");
        s.execute("BEGIN");
        assertThat(copyIn("COPY t FROM STDIN", "1\n2\n", 100)).isEqualTo("COPY 2");
        s.execute("ROLLBACK");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("0"));
        s.execute("BEGIN");
        copyIn("COPY t FROM STDIN", "1\n2\n", 100);
        s.execute("COMMIT");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("2"));
    }

    @Test
    void aFailedCopyFailsTheTransaction() {
        s.execute("CREATE TABLE t (a INT)");
        s.execute("BEGIN");
        assertThatThrownBy(() -> copyIn("COPY t FROM STDIN", "x\n", 100)).isInstanceOf(SqlException.class);
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.FAILED);
        s.execute("ROLLBACK");
    }

    @Test
    void planningErrorsAreThoseOfPostgres() {
        s.execute("CREATE TABLE t (a INT, b INT)");
        s.execute("CREATE VIEW v AS SELECT 1 AS x");
        assertState("42P01", "COPY nope FROM STDIN");
        assertState("42703", "COPY t (nope) FROM STDIN");
        assertState("42701", "COPY t (a, a) FROM STDIN");
        assertState("42809", "COPY v FROM STDIN");
        assertState("42809", "COPY v TO STDOUT");
        assertState("0A000", "COPY t FROM '/etc/passwd'");
        assertState("0A000", "COPY t TO PROGRAM 'cat'");
        assertState("0A000", "COPY t FROM STDIN (FORMAT binary)");
        assertState("0A000", "COPY t FROM STDIN WITH BINARY");
        assertState("42601", "COPY t FROM STDIN (FORMAT csv, FORMAT csv)");
        assertState("42601", "COPY t FROM STDIN (foo 1)");
        assertState("22023", "COPY t FROM STDIN (FORMAT json)");
        assertState("0A000", "COPY t FROM STDIN (DELIMITER 'ab')");
        assertState("0A000", "COPY t TO STDOUT (QUOTE '\"')");
        assertState("0A000", "COPY t FROM STDIN (FORMAT csv, FORCE_QUOTE *)");
        assertState("0A000", "COPY t TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a))");
        assertState("0A000", "COPY t TO STDOUT (HEADER match)");
        assertState("22023", "COPY t FROM STDIN (FORMAT csv, QUOTE ',')");
        assertState("42P10", "COPY t (a) FROM STDIN (FORMAT csv, FORCE_NULL (b))");
        assertState("42601", "COPY (SELECT 1) FROM STDIN");
        assertState("42601", "COPY t TO STDOUT WHERE a > 1");
    }

    @Test
    void legacyOptionsAsPsqlSendsThem() {
        s.execute("CREATE TABLE t (a INT, b TEXT)");
        assertThat(copyIn("COPY t FROM STDIN WITH DELIMITER AS ';' NULL AS 'nil' CSV HEADER QUOTE AS '''' ",
                "a;b\n1;'x;y'\n2;nil\n", 5)).isEqualTo("COPY 2");
        List<String> out = new ArrayList<>(copyOut("COPY t TO STDOUT WITH CSV FORCE QUOTE b").lines().toList());
        assertThat(out).containsExactlyInAnyOrder("1,\"x;y\"", "2,");
    }
}
