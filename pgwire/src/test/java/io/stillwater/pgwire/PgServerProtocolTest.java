package io.stillwater.pgwire;

import io.stillwater.engine.types.SqlType;
import io.stillwater.pgwire.types.PgBinaryCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.HashMap;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The protocol at the byte level: framing limits, startup variants, the extended protocol's corners. */
class PgServerProtocolTest {
    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory(), 1 << 20).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private int port() { return server.boundPort(); }

    /** A second connection still works: a protocol error never takes the server down. */
    private void assertServerStillServes() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port() + "/materialize?user=x");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 3")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(3);
        }
    }

    private static void assertFatal(List<Msg> msgs, String sqlState, String messagePart) {
        assertThat(msgs).isNotEmpty();
        Msg last = msgs.getLast();
        assertThat(last.type()).isEqualTo('E');
        Map<Character, String> f = last.fields();
        assertThat(f).containsEntry('S', "FATAL").containsEntry('V', "FATAL").containsEntry('C', sqlState);
        assertThat(f.get('M')).contains(messagePart);
    }

    @Test
    void startupSendsAuthOkParametersKeyAndReady() throws Exception {
        try (RawClient c = new RawClient(port())) {
            List<Msg> msgs = c.startup(Map.of("user", "bob", "application_name", "rawtest"));
            assertThat(msgs.getFirst().type()).isEqualTo('R');
            assertThat(ByteBuffer.wrap(msgs.getFirst().body()).getInt()).isZero();
            Map<String, String> params = new HashMap<>();
            for (Msg m : msgs) {
                if (m.type() == 'S') {
                    String[] kv = new String(m.body(), StandardCharsets.UTF_8).split("\0");
                    params.put(kv[0], kv[1]);
                }
            }
            assertThat(params).containsEntry("server_version", "15.0 (Stillwater 0.1.0)")
                    .containsEntry("client_encoding", "UTF8").containsEntry("DateStyle", "ISO, MDY")
                    .containsEntry("integer_datetimes", "on").containsEntry("standard_conforming_strings", "on")
                    .containsEntry("application_name", "rawtest");
            assertThat(RawClient.types(msgs)).endsWith("KZ");
            assertThat(msgs.getLast().body()).containsExactly('I');
        }
        assertThat(probe.databases).containsExactly("materialize");
    }

    @Test
    void sslAndGssEncRequestsAreRefusedAndStartupContinues() throws Exception {
        try (RawClient c = new RawClient(port())) {
            c.sendUntyped(new Body().int32(80877103).bytes());
            assertThat(c.readByte()).isEqualTo('N');
            c.sendUntyped(new Body().int32(80877104).bytes());
            assertThat(c.readByte()).isEqualTo('N');
            List<Msg> msgs = c.startup(Map.of("user", "u"));
            assertThat(msgs.getLast().type()).isEqualTo('Z');
        }
    }

    @Test
    void garbageMessageTypeIsAFatalProtocolViolation() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('~', new byte[] {1, 2, 3});
            assertFatal(c.readUntilClosed(), "08P01", "invalid frontend message type 126");
        }
        assertServerStillServes();
    }

    @Test
    void oversizedMessageIsRejectedFromItsHeader() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.sendRaw(new Body().int8('Q').int32(Integer.MAX_VALUE).bytes());
            assertFatal(c.readUntilClosed(), "08P01", "too large");
        }
        assertServerStillServes();
    }

    @Test
    void messageLengthBelowFourIsRejected() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.sendRaw(new Body().int8('Q').int32(3).bytes());
            assertFatal(c.readUntilClosed(), "08P01", "invalid message length");
        }
        assertServerStillServes();
    }

    @Test
    void truncatedBodyIsRejected() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            // Bind claiming three parameters but carrying none.
            c.send('B', new Body().cstring("").cstring("").int16(0).int16(3).bytes());
            assertFatal(c.readUntilClosed(), "08P01", "insufficient data left in message");
        }
        assertServerStillServes();
    }

    @Test
    void unterminatedStringIsRejected() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', "SELECT 1".getBytes(StandardCharsets.UTF_8));
            assertFatal(c.readUntilClosed(), "08P01", "invalid string in message");
        }
        assertServerStillServes();
    }

    @Test
    void garbageStartupPacketIsRejected() throws Exception {
        try (RawClient c = new RawClient(port())) {
            c.sendRaw("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertFatal(c.readUntilClosed(), "08P01", "invalid length of startup packet");
        }
        assertServerStillServes();
    }

    @Test
    void unsupportedProtocolVersionIsRejected() throws Exception {
        try (RawClient c = new RawClient(port())) {
            c.sendUntyped(new Body().int32(2 << 16).cstring("user").cstring("u").int8(0).bytes());
            assertFatal(c.readUntilClosed(), "0A000", "unsupported frontend protocol 2.0");
        }
        assertServerStillServes();
    }

    @Test
    void newerMinorVersionIsNegotiatedDownToThreeZero() throws Exception {
        try (RawClient c = new RawClient(port())) {
            c.sendUntyped(new Body().int32((3 << 16) | 2).cstring("user").cstring("u")
                    .cstring("_pq_.future").cstring("x").int8(0).bytes());
            List<Msg> msgs = c.readUntilReady();
            assertThat(msgs.getFirst().type()).isEqualTo('v');
            ByteBuffer v = ByteBuffer.wrap(msgs.getFirst().body());
            assertThat(v.getInt()).isZero();
            assertThat(v.getInt()).isEqualTo(1);
            assertThat(msgs.getLast().type()).isEqualTo('Z');
        }
    }

    @Test
    void simpleQueryWithSeveralStatementsStopsAtTheFirstError() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT 1; SELECT 1/0; SELECT 2"));
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("TDCEZ");
            assertThat(msgs.get(2).string()).isEqualTo("SELECT 1");
            assertThat(msgs.get(3).fields()).containsEntry('S', "ERROR").containsEntry('C', "22012");

            c.send('Q', RawClient.query("  "));
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("IZ");
        }
    }

    @Test
    void rowLimitSuspendsThePortalAndTheNextExecuteResumes() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("BEGIN"));
            assertThat(c.readUntilReady().getLast().body()).containsExactly('T');
            c.send('P', RawClient.parse("s1", "SELECT * FROM series(5)"));
            c.send('B', RawClient.bind("p1", "s1"));
            c.send('D', RawClient.describe('P', "p1"));
            c.send('E', RawClient.execute("p1", 2));
            c.send('S', new byte[0]);
            List<Msg> first = c.readUntilReady();
            assertThat(RawClient.types(first)).isEqualTo("12TDDsZ");
            assertThat(first.getLast().body()).containsExactly('T');

            c.send('E', RawClient.execute("p1", 2));
            c.send('E', RawClient.execute("p1", 2));
            c.send('C', new Body().int8('P').cstring("p1").bytes());
            c.send('S', new byte[0]);
            List<Msg> rest = c.readUntilReady();
            assertThat(RawClient.types(rest)).isEqualTo("DDsDC3Z");
            assertThat(rest.get(1).body()).isEqualTo(new Body().int16(1).int32(1).raw("4".getBytes()).bytes());
            assertThat(rest.get(4).string()).isEqualTo("SELECT 1");
        }
    }

    @Test
    void afterAnErrorMessagesAreSkippedUntilSync() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("", "FROB"));
            c.send('B', RawClient.bind("", ""));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("EZ");
            assertThat(msgs.getFirst().fields()).containsEntry('C', "42601");

            c.send('P', RawClient.parse("", "SELECT $1", 23));
            c.send('B', RawClient.bind("", "", "41"));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            // Text parameters of integer type go through DatumText.parse; either way the reply is well formed.
            List<Msg> next = c.readUntilReady();
            assertThat(RawClient.types(next)).matches("12DCZ|1EZ");
        }
    }

    @Test
    void describeStatementReportsParameterAndRowTypes() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("s", "SELECT $1, $2", 20, 0));
            c.send('D', RawClient.describe('S', "s"));
            c.send('P', RawClient.parse("c", "CREATE TABLE t (a int)"));
            c.send('D', RawClient.describe('S', "c"));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("1tT1tnZ");
            assertThat(msgs.get(1).body()).isEqualTo(new Body().int16(2).int32(20).int32(25).bytes());
            ByteBuffer rd = ByteBuffer.wrap(msgs.get(2).body());
            assertThat(rd.getShort()).isEqualTo((short) 2);
        }
    }

    @Test
    void unknownStatementAndPortalAreErrors() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('B', RawClient.bind("", "nope"));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(msgs.getFirst().fields()).containsEntry('C', "26000")
                    .containsEntry('M', "prepared statement \"nope\" does not exist");
            c.send('E', RawClient.execute("nope", 0));
            c.send('S', new byte[0]);
            assertThat(c.readUntilReady().getFirst().fields()).containsEntry('C', "34000");
            c.send('P', RawClient.parse("dup", "SELECT 1"));
            c.send('P', RawClient.parse("dup", "SELECT 2"));
            c.send('S', new byte[0]);
            List<Msg> dup = c.readUntilReady();
            assertThat(RawClient.types(dup)).isEqualTo("1EZ");
            assertThat(dup.get(1).fields()).containsEntry('C', "42P05");
        }
    }

    @Test
    void wrongParameterCountIsAnError() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("", "SELECT $1, $2"));
            c.send('B', RawClient.bind("", "", "a"));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("1EZ");
            assertThat(msgs.get(1).fields()).containsEntry('C', "08P01")
                    .containsEntry('M', "bind message supplies 1 parameters, but prepared statement \"\" requires 2");
        }
    }

    @Test
    void cancelRequestWithTheWrongSecretCancelsNothing() throws Exception {
        try (RawClient c = new RawClient(port())) {
            List<Msg> msgs = c.startup(Map.of("user", "u"));
            ByteBuffer key = ByteBuffer.wrap(msgs.stream().filter(m -> m.type() == 'K').findFirst().orElseThrow().body());
            int pid = key.getInt();
            int secret = key.getInt();
            c.send('Q', RawClient.query("SELECT slow"));
            assertThat(probe.slowStarted.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
            try (RawClient wrong = new RawClient(port())) {
                wrong.sendUntyped(new Body().int32(80877102).int32(pid).int32(secret + 1).bytes());
                assertThat(wrong.readUntilClosed()).isEmpty();
            }
            assertThat(probe.cancels).hasValue(0);
            try (RawClient right = new RawClient(port())) {
                right.sendUntyped(new Body().int32(80877102).int32(pid).int32(secret).bytes());
                assertThat(right.readUntilClosed()).isEmpty();
            }
            assertThat(probe.cancels).hasValue(1);
            List<Msg> reply = c.readUntilReady();
            assertThat(RawClient.types(reply)).isEqualTo("EZ");
            assertThat(reply.getFirst().fields()).containsEntry('C', "57014")
                    .containsEntry('M', "canceling statement due to user request");
        }
    }

    @Test
    void terminateClosesTheSession() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('X', new byte[0]);
            assertThat(c.readUntilClosed()).isEmpty();
        }
        assertThat(probe.firstClosed.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void pipelinedQueriesAreAnsweredInOrder() throws Exception {
        int n = 3000; // more than the input high-water mark, so reading pauses and resumes
        try (RawClient c = RawClient.started(port())) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < n; i++) c.send('Q', RawClient.query("SELECT " + i));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            for (int i = 0; i < n; i++) {
                List<Msg> reply = c.readUntilReady();
                assertThat(RawClient.types(reply)).isEqualTo("TDCZ");
                byte[] value = String.valueOf(i).getBytes(StandardCharsets.UTF_8);
                assertThat(reply.get(1).body()).isEqualTo(new Body().int16(1).int32(value.length).raw(value).bytes());
            }
            writer.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void closingTheServerClosesEverySession() throws Exception {
        RawClient a = RawClient.started(port());
        RawClient b = RawClient.started(port());
        b.send('Q', RawClient.query("SELECT slow"));
        assertThat(probe.slowStarted.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        server.close();
        assertThat(probe.closed).hasValue(2);
        assertThat(server.cancelRegistry().size()).isZero();
        a.close();
        b.close();
    }

    @Test
    void flushDeliversPendingRepliesWithoutEndingTheTransaction() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("s", "SELECT 1"));
            c.send('H', new byte[0]);
            Msg parseComplete = c.read();
            assertThat(parseComplete.type()).isEqualTo('1');
            c.send('S', new byte[0]);
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("Z");
        }
    }

    @Test
    void binaryResultFormatIsDescribedAndSent() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("", "SELECT 258"));
            c.send('B', new Body().cstring("").cstring("").int16(0).int16(0).int16(1).int16(1).bytes());
            c.send('D', RawClient.describe('P', ""));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("12TDCZ");
            ByteBuffer field = ByteBuffer.wrap(msgs.get(2).body());
            assertThat(field.getShort()).isEqualTo((short) 1);
            while (field.get() != 0) { } // column name
            assertThat(field.getInt()).isZero();                 // table oid
            assertThat(field.getShort()).isZero();               // column number
            assertThat(field.getInt()).isEqualTo(23);            // int4
            assertThat(field.getShort()).isEqualTo((short) 4);   // typlen
            assertThat(field.getInt()).isEqualTo(-1);            // typmod
            assertThat(field.getShort()).isEqualTo((short) 1);   // binary
            assertThat(msgs.get(3).body()).isEqualTo(new Body().int16(1).int32(4).int32(258).bytes());
        }
    }

    @Test
    void binaryParametersAreDecodedByTheirStatementTypes() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("", "SELECT $1, $2", 20, 1700));
            byte[] numeric = PgBinaryCodec.encode(
                    SqlType.NUMERIC, new BigDecimal("-1.50"));
            c.send('B', new Body().cstring("").cstring("").int16(1).int16(1).int16(2)
                    .int32(4).int32(-5)                      // int4 bytes for an int8 parameter: widened
                    .int32(numeric.length).raw(numeric)
                    .int16(0).bytes());
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("12DCZ");
            ByteBuffer row = ByteBuffer.wrap(msgs.get(2).body());
            assertThat(row.getShort()).isEqualTo((short) 2);
            byte[] first = new byte[row.getInt()];
            row.get(first);
            assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo("-5");
            byte[] second = new byte[row.getInt()];
            row.get(second);
            assertThat(new String(second, StandardCharsets.UTF_8)).isEqualTo("-1.50");
        }
    }
}
