package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The COPY sub-protocol message by message, as PostgreSQL 15 answers it: copy-in from a
 * simple query (with statements after it) and from the extended protocol (a Sync sent
 * during copy-in is ignored), CopyFail, copy-out through Execute, and a client that
 * disconnects mid-COPY writing nothing.
 */
class CopyProtocolTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    private static List<Msg> readUntil(RawClient c, char type) throws IOException {
        List<Msg> msgs = new ArrayList<>();
        while (true) {
            Msg m = c.read();
            if (m == null) throw new AssertionError("connection closed after " + RawClient.types(msgs));
            msgs.add(m);
            if (m.type() == type) return msgs;
        }
    }

    private static String text(Msg m) { return new String(m.body(), StandardCharsets.UTF_8); }

    private static void exec(RawClient c, String sql) throws IOException {
        c.send('Q', RawClient.query(sql));
        List<Msg> r = c.readUntilReady();
        assertThat(RawClient.types(r)).as(sql).doesNotContain("E");
    }

    private static String count(RawClient c, String table) throws IOException {
        c.send('Q', RawClient.query("SELECT count(*) FROM " + table));
        List<Msg> r = c.readUntilReady();
        Msg row = r.stream().filter(m -> m.type() == 'D').findFirst().orElseThrow();
        return new String(row.body(), 6, row.body().length - 6, StandardCharsets.UTF_8);
    }

    @Test
    void simpleQueryCopyInThenTheRestOfTheQuery() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            exec(c, "CREATE TABLE cp_simple (a INT, b TEXT)");
            c.send('Q', RawClient.query("COPY cp_simple FROM STDIN; SELECT count(*) FROM cp_simple"));
            List<Msg> start = readUntil(c, 'G');
            // CopyInResponse: text overall, two text columns
            assertThat(start.getLast().body()).containsExactly(0, 0, 2, 0, 0, 0, 0);
            c.send('d', bytes("1\tone\n2\t"));
            c.send('S', new byte[0]); // ignored in copy-in mode
            c.send('d', bytes("two\n"));
            c.send('c', new byte[0]);
            List<Msg> rest = c.readUntilReady();
            assertThat(RawClient.types(rest)).isEqualTo("CTDCZ");
            assertThat(text(rest.get(0))).isEqualTo("COPY 2\0");
        }
    }

    @Test
    void copyFailEndsTheCopyWithNothingWritten() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            exec(c, "CREATE TABLE cp_fail (a INT)");
            c.send('Q', RawClient.query("COPY cp_fail FROM STDIN"));
            readUntil(c, 'G');
            c.send('d', bytes("1\n2\n"));
            c.send('f', bytes("client gave up\0"));
            List<Msg> r = c.readUntilReady();
            assertThat(RawClient.types(r)).isEqualTo("EZ");
            assertThat(text(r.get(0))).contains("C57014").contains("COPY from stdin failed: client gave up");
            // Stray copy messages after the COPY ended are dropped, as PostgreSQL does.
            c.send('d', bytes("3\n"));
            assertThat(count(c, "cp_fail")).isEqualTo("0");
        }
    }

    @Test
    void extendedProtocolCopyInAndOut() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            exec(c, "CREATE TABLE cp_ext (a INT)");
            c.send('P', RawClient.parse("", "COPY cp_ext FROM STDIN (FORMAT csv)"));
            c.send('B', RawClient.bind("", ""));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            assertThat(RawClient.types(readUntil(c, 'G'))).isEqualTo("12G");
            c.send('d', bytes("7\n8\n"));
            c.send('c', new byte[0]);
            c.send('S', new byte[0]);
            List<Msg> done = c.readUntilReady();
            assertThat(RawClient.types(done)).isEqualTo("CZ");
            assertThat(text(done.get(0))).isEqualTo("COPY 2\0");

            c.send('P', RawClient.parse("", "COPY (SELECT a FROM cp_ext ORDER BY a) TO STDOUT"));
            c.send('B', RawClient.bind("", ""));
            c.send('E', RawClient.execute("", 1)); // a row limit does not split a COPY
            c.send('S', new byte[0]);
            List<Msg> out = c.readUntilReady();
            assertThat(RawClient.types(out)).isEqualTo("12HddcCZ");
            assertThat(text(out.get(3))).isEqualTo("7\n");
            assertThat(text(out.get(4))).isEqualTo("8\n");
            assertThat(text(out.get(6))).isEqualTo("COPY 2\0");
        }
    }

    @Test
    void anErrorInExtendedCopyInSkipsToSync() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            exec(c, "CREATE TABLE cp_err (a INT)");
            c.send('P', RawClient.parse("", "COPY cp_err FROM STDIN"));
            c.send('B', RawClient.bind("", ""));
            c.send('E', RawClient.execute("", 0));
            c.send('H', new byte[0]);
            readUntil(c, 'G');
            c.send('d', bytes("1\nnope\n"));
            c.send('c', new byte[0]);
            c.send('S', new byte[0]);
            List<Msg> r = c.readUntilReady();
            assertThat(RawClient.types(r)).isEqualTo("EZ");
            assertThat(text(r.get(0))).contains("C22P02").contains("WCOPY cp_err, line 2, column a: \"nope\"");
            assertThat(count(c, "cp_err")).isEqualTo("0");
        }
    }

    @Test
    void aClientThatDisconnectsMidCopyWritesNothing() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            exec(c, "CREATE TABLE cp_gone (a INT)");
            c.send('Q', RawClient.query("COPY cp_gone FROM STDIN"));
            readUntil(c, 'G');
            c.send('d', bytes("1\n2\n3\n"));
        }
        try (RawClient c = RawClient.started(db.port())) {
            // The server notices the disconnect asynchronously; then the table must still be empty.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < deadline) {
                assertThat(count(c, "cp_gone")).isEqualTo("0");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }
}
