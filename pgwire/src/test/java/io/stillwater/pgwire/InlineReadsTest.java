package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Prepared point reads answered on the event loop ({@link PgConnectionHandler}'s "Inline
 * reads") give exactly the replies of the connection thread's path, keep every reply in
 * order when a client pipelines reads behind writes, and only bounded reads run there:
 * the others go to the connection's thread, where cancellation works as always.
 *
 * <p>The worker path to compare with is the same read inside BEGIN: the engine never
 * runs a transaction block's read at once ({@code Session.executeImmediate}).
 */
class InlineReadsTest {
    private static final int KEYS = 100;
    /** More rows under one key than an immediate read may visit. */
    private static final int MANY = 300;

    static EmbeddedStillwater db;

    @BeforeAll
    static void start() throws Exception {
        db = new EmbeddedStillwater();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a int, b int)");
            s.execute("CREATE INDEX t_a ON t (a)");
            StringBuilder values = new StringBuilder();
            for (int i = 1; i <= KEYS; i++) values.append(i == 1 ? "" : ",").append("(").append(i).append(",").append(i * 10).append(")");
            values.append(",(0,0)"); // b = 0: 10 / b fails
            for (int i = 0; i < MANY; i++) values.append(",(-1,").append(i).append(")");
            s.execute("INSERT INTO t VALUES " + values);
        }
    }

    @AfterAll
    static void stop() { db.close(); }

    @Test
    void pointLookupsRunOnTheEventLoopWithTheWorkerPathsReplies() throws Exception {
        try (RawClient c = started()) {
            c.send('P', RawClient.parse("lookup", "SELECT b FROM t WHERE a = $1"));
            c.send('S', new byte[0]);
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("1Z");
            long inlineBefore = db.server().inlineExecutes();
            for (int key = 1; key <= KEYS; key++) {
                List<Msg> inline = execute(c, "lookup", Integer.toString(key));
                assertThat(RawClient.types(inline)).isEqualTo("2TDCZ");
                assertThat(inline.get(2).body()).isEqualTo(dataRow(Integer.toString(key * 10)));
                assertThat(readyStatus(inline)).isEqualTo('I');
                if (key > 10) continue; // a transaction block's first read is slow: compare a few

                c.send('Q', RawClient.query("BEGIN"));
                assertThat(RawClient.types(c.readUntilReady())).isEqualTo("CZ");
                List<Msg> worker = execute(c, "lookup", Integer.toString(key));
                assertThat(readyStatus(worker)).isEqualTo('T');
                assertThat(bodies(worker.subList(0, 4))).isEqualTo(bodies(inline.subList(0, 4)));
                c.send('Q', RawClient.query("COMMIT"));
                assertThat(RawClient.types(c.readUntilReady())).isEqualTo("CZ");
            }
            // A reply can reach the client just before the worker marks itself idle: then the
            // next read goes to the worker. Most go inline.
            assertThat(db.server().inlineExecutes() - inlineBefore).isGreaterThanOrEqualTo(KEYS / 2);
        }
    }

    @Test
    void cachedSimpleQueriesAndUnnamedParsesRunOnTheEventLoopWithTheWorkerPathsReplies() throws Exception {
        try (RawClient c = started()) {
            // The first of each plans it on the connection's thread; later ones find the plan cached.
            c.send('Q', RawClient.query("SELECT b FROM t WHERE a = 1"));
            c.readUntilReady();
            long inlineBefore = db.server().inlineExecutes();
            for (int key = 1; key <= KEYS; key++) {
                String sql = "SELECT b FROM t WHERE a = " + key;
                c.send('Q', RawClient.query(sql));
                List<Msg> simple = c.readUntilReady();
                assertThat(RawClient.types(simple)).isEqualTo("TDCZ");
                assertThat(simple.get(1).body()).isEqualTo(dataRow(Integer.toString(key * 10)));
                assertThat(readyStatus(simple)).isEqualTo('I');

                c.sendRaw(concat(frame('P', RawClient.parse("", "SELECT b FROM t WHERE a = $1")),
                        frame('B', RawClient.bind("", "", Integer.toString(key))), frame('D', RawClient.describe('P', "")),
                        frame('E', RawClient.execute("", 0)), frame('S', new byte[0])));
                List<Msg> extended = c.readUntilReady();
                assertThat(RawClient.types(extended)).isEqualTo("12TDCZ");
                assertThat(bodies(extended.subList(2, 5))).isEqualTo(bodies(simple.subList(0, 3)));
                if (key > 10) continue; // a transaction block's first read is slow: compare a few

                c.send('Q', RawClient.query("BEGIN"));
                assertThat(RawClient.types(c.readUntilReady())).isEqualTo("CZ");
                c.send('Q', RawClient.query(sql));
                List<Msg> worker = c.readUntilReady();
                assertThat(readyStatus(worker)).isEqualTo('T');
                assertThat(bodies(worker.subList(0, 3))).isEqualTo(bodies(simple.subList(0, 3)));
                c.send('Q', RawClient.query("COMMIT"));
                assertThat(RawClient.types(c.readUntilReady())).isEqualTo("CZ");
            }
            // Two reads per key; a reply can reach the client just before the worker marks
            // itself idle, and then the next read goes to the worker. Most go inline.
            assertThat(db.server().inlineExecutes() - inlineBefore).isGreaterThanOrEqualTo(KEYS);
        }
    }

    @Test
    void aSimpleQueryOfSeveralStatementsOrAnErrorIsAnsweredAsOnTheWorker() throws Exception {
        try (RawClient c = started()) {
            c.send('Q', RawClient.query("SELECT 10 / b FROM t WHERE a = 0"));
            List<Msg> first = c.readUntilReady();
            c.send('Q', RawClient.query("SELECT 10 / b FROM t WHERE a = 0"));
            List<Msg> cached = c.readUntilReady();
            assertThat(RawClient.types(cached)).isEqualTo(RawClient.types(first));
            assertThat(cached.get(cached.size() - 2).fields().get('C')).isEqualTo("22012");
            assertThat(readyStatus(cached)).isEqualTo('I');

            c.send('Q', RawClient.query("SELECT b FROM t WHERE a = 2; SELECT b FROM t WHERE a = 3"));
            List<Msg> two = c.readUntilReady();
            assertThat(RawClient.types(two)).isEqualTo("TDCTDCZ");
            assertThat(two.get(4).body()).isEqualTo(dataRow("30"));
        }
    }

    @Test
    void anEvaluationErrorInlineIsTheWorkerPathsError() throws Exception {
        try (RawClient c = started()) {
            c.send('P', RawClient.parse("div", "SELECT 10 / b FROM t WHERE a = $1"));
            c.send('S', new byte[0]);
            c.readUntilReady();
            List<Msg> inline = execute(c, "div", "0");
            assertThat(RawClient.types(inline)).isEqualTo("2TEZ");
            assertThat(readyStatus(inline)).isEqualTo('I');
            Map<Character, String> inlineError = inline.get(2).fields();
            assertThat(inlineError.get('C')).isEqualTo("22012");

            c.send('Q', RawClient.query("BEGIN"));
            c.readUntilReady();
            List<Msg> worker = execute(c, "div", "0");
            assertThat(RawClient.types(worker)).isEqualTo("2TEZ");
            assertThat(readyStatus(worker)).isEqualTo('E');
            assertThat(worker.get(2).fields()).isEqualTo(inlineError);
            c.send('Q', RawClient.query("ROLLBACK"));
            c.readUntilReady();

            // The connection goes on: the next read answers.
            List<Msg> next = execute(c, "div", "5");
            assertThat(RawClient.types(next)).isEqualTo("2TDCZ");
            assertThat(next.get(2).body()).isEqualTo(dataRow("0"));
        }
    }

    @Test
    void readsThatCannotFinishAtOnceGoToTheConnectionsThread() throws Exception {
        try (RawClient c = started()) {
            c.send('P', RawClient.parse("many", "SELECT b FROM t WHERE a = $1"));
            c.send('P', RawClient.parse("count", "SELECT count(*) FROM t WHERE b >= $1"));
            c.send('S', new byte[0]);
            c.readUntilReady();
            long inlineBefore = db.server().inlineExecutes();
            long handedBefore = db.server().handedOffExecutes();

            List<Msg> many = execute(c, "many", "-1"); // more rows than an immediate read may visit
            assertThat(many.stream().filter(m -> m.type() == 'D').count()).isEqualTo(MANY);
            assertThat(many.getLast().type()).isEqualTo('Z');
            List<Msg> count = execute(c, "count", "0"); // a peek dataflow
            assertThat(count.get(2).body()).isEqualTo(dataRow(Integer.toString(KEYS + 1 + MANY)));

            assertThat(db.server().inlineExecutes()).isEqualTo(inlineBefore);
            assertThat(db.server().handedOffExecutes() - handedBefore).isEqualTo(2);
        }
    }

    @Test
    void aSlowReadRunsOnTheConnectionsThreadAndCanBeCancelled() throws Exception {
        try (RawClient c = started()) {
            c.send('P', RawClient.parse("slow", "SELECT count(*) FROM generate_series(1, 2000000000)"));
            c.send('S', new byte[0]);
            c.readUntilReady();
            long handedBefore = db.server().handedOffExecutes();
            c.sendRaw(concat(frame('B', RawClient.bind("", "slow")), frame('E', RawClient.execute("", 0)),
                    frame('S', new byte[0])));
            // The event loop is free meanwhile: another connection's point read is answered.
            try (RawClient other = started()) {
                other.send('P', RawClient.parse("lookup", "SELECT b FROM t WHERE a = $1"));
                other.send('S', new byte[0]);
                other.readUntilReady();
                assertThat(execute(other, "lookup", "7").get(2).body()).isEqualTo(dataRow("70"));
            }
            assertThat(db.server().handedOffExecutes() - handedBefore).isGreaterThanOrEqualTo(1);
            c.cancel(db.port());
            List<Msg> reply = c.readUntilReady();
            assertThat(RawClient.types(reply)).isEqualTo("2EZ");
            assertThat(reply.get(1).fields().get('C')).isEqualTo("57014");
        }
    }

    /**
     * A client pipelines, in one write, an INSERT (which runs on the connection's thread)
     * followed by point reads: a read may run inline only once the worker is idle and its
     * replies are out, so every reply comes in order, and a read of the key just
     * inserted sees it (read your writes across the two runners). Many rounds, to meet
     * the hand-overs at different moments.
     */
    @Test
    void pipelinedReadsBehindWritesKeepOrderAndSeeTheWrites() throws Exception {
        try (RawClient c = started()) {
            c.send('P', RawClient.parse("ins", "INSERT INTO t VALUES ($1, $2)"));
            c.send('P', RawClient.parse("get", "SELECT b FROM t WHERE a = $1"));
            c.send('S', new byte[0]);
            c.readUntilReady();
            for (int round = 0; round < 200; round++) {
                int key = 1_000 + round;
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                batch.write(bindExecuteSync("ins", Integer.toString(key), Integer.toString(-key)));
                batch.write(bindExecuteSync("get", Integer.toString(key)));
                for (int k = 1; k <= 3; k++) batch.write(bindExecuteSync("get", Integer.toString(k)));
                c.sendRaw(batch.toByteArray());
                List<Msg> insert = c.readUntilReady();
                assertThat(RawClient.types(insert)).isEqualTo("2CZ");
                List<Msg> own = c.readUntilReady();
                assertThat(RawClient.types(own)).isEqualTo("2DCZ");
                assertThat(own.get(1).body()).as("round %d", round).isEqualTo(dataRow(Integer.toString(-key)));
                for (int k = 1; k <= 3; k++) {
                    List<Msg> read = c.readUntilReady();
                    assertThat(read.get(1).body()).as("round %d key %d", round, k).isEqualTo(dataRow(Integer.toString(k * 10)));
                }
            }
        }
    }

    // ---- helpers ----

    /** A raw connection as the user who created the table. */
    private static RawClient started() throws Exception {
        RawClient c = new RawClient(db.port());
        List<Msg> startup = c.startup(Map.of("user", db.user()));
        assertThat(startup.getLast().type()).isEqualTo('Z');
        return c;
    }

    /** Bind (text), Describe portal, Execute, Sync in one write, as libpq sends a prepared execution; the replies. */
    private static List<Msg> execute(RawClient c, String statement, String... params) throws Exception {
        c.sendRaw(concat(frame('B', RawClient.bind("", statement, params)), frame('D', RawClient.describe('P', "")),
                frame('E', RawClient.execute("", 0)), frame('S', new byte[0])));
        return c.readUntilReady();
    }

    private static byte[] bindExecuteSync(String statement, String... params) {
        return concat(frame('B', RawClient.bind("", statement, params)), frame('E', RawClient.execute("", 0)),
                frame('S', new byte[0]));
    }

    private static char readyStatus(List<Msg> msgs) { return (char) msgs.getLast().body()[0]; }

    private static List<String> bodies(List<Msg> msgs) {
        List<String> out = new ArrayList<>();
        for (Msg m : msgs) out.add(m.type() + java.util.HexFormat.of().formatHex(m.body()));
        return out;
    }

    /** A DataRow's body holding one text value. */
    private static byte[] dataRow(String value) {
        byte[] v = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + 4 + v.length).putShort((short) 1).putInt(v.length).put(v).array();
    }

    private static byte[] frame(char type, byte[] body) {
        return ByteBuffer.allocate(5 + body.length).put((byte) type).putInt(body.length + 4).put(body).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }
}
