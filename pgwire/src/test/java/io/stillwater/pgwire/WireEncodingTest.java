package io.stillwater.pgwire;

import java.nio.charset.StandardCharsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bytes a client sends that are not valid text: PostgreSQL 15 answers each with an ERROR
 * (22021 for bytes that are not UTF-8, 08P01 for a NUL inside a query string) and the
 * connection stays usable; text-format parameters are never patched with U+FFFD.
 */
class WireEncodingTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static byte[] query(byte[] sql) { return new Body().raw(sql).int8(0).bytes(); }

    private static Msg error(List<Msg> msgs) {
        return msgs.stream().filter(m -> m.type() == 'E').findFirst().orElseThrow(
                () -> new AssertionError("no ErrorResponse in " + RawClient.types(msgs)));
    }

    /** The connection still runs statements after the error. */
    private static void assertUsable(RawClient c) throws Exception {
        c.send('Q', RawClient.query("SELECT 'still here'"));
        List<Msg> msgs = c.readUntilReady();
        assertThat(RawClient.types(msgs)).isEqualTo("TDCZ");
        assertThat(new String(msgs.get(1).body(), StandardCharsets.UTF_8)).contains("still here");
    }

    @Test
    void invalidUtf8InASimpleQueryIsAnErrorNotADroppedConnection() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('Q', query(new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xff, (byte) 0xfe, '\''}));
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("EZ");
            assertThat(error(msgs).fields()).containsEntry('S', "ERROR").containsEntry('C', "22021")
                    .containsEntry('M', "invalid byte sequence for encoding \"UTF8\": 0xff");
            assertUsable(c);
        }
    }

    @Test
    void invalidBytesInsideATransactionFailItAsAnyErrorDoes() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('Q', RawClient.query("BEGIN"));
            assertThat(c.readUntilReady().getLast().body()).containsExactly('T');
            c.send('Q', query(new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', (byte) 0x80}));
            List<Msg> msgs = c.readUntilReady();
            assertThat(error(msgs).fields()).containsEntry('C', "22021");
            assertThat(msgs.getLast().body()).containsExactly('E');
            c.send('Q', RawClient.query("ROLLBACK"));
            assertThat(c.readUntilReady().getLast().body()).containsExactly('I');
            assertUsable(c);
        }
    }

    @Test
    void aTruncatedSequenceNamesItsBytesAsPostgresDoes() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('Q', query(new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xc3, '\''}));
            Msg e = error(c.readUntilReady());
            assertThat(e.fields()).containsEntry('C', "22021")
                    .containsEntry('M', "invalid byte sequence for encoding \"UTF8\": 0xc3 0x27");
            assertUsable(c);
        }
    }

    @Test
    void aNulInsideAQueryStringIsAnError() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('Q', new Body().raw("SELECT 1".getBytes()).int8(0).raw("SELECT 2".getBytes()).int8(0).bytes());
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("EZ");
            assertThat(error(msgs).fields()).containsEntry('S', "ERROR").containsEntry('C', "08P01")
                    .containsEntry('M', "invalid message format");
            assertUsable(c);
        }
    }

    @Test
    void invalidUtf8InParseSkipsToSync() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            byte[] sql = {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xe2, (byte) 0x28, (byte) 0xa1, '\''};
            c.send('P', new Body().cstring("").raw(sql).int8(0).int16(0).bytes());
            c.send('B', RawClient.bind("", ""));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("EZ");
            assertThat(error(msgs).fields()).containsEntry('C', "22021");
            assertUsable(c);
        }
    }

    @Test
    void invalidUtf8InATextBindParameterIs22021NotAReplacementCharacter() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('P', RawClient.parse("", "SELECT $1::text", 0));
            byte[] bind = new Body().cstring("").cstring("").int16(0).int16(1)
                    .int32(2).raw(new byte[] {(byte) 0xff, (byte) 0xfe}).int16(0).bytes();
            c.send('B', bind);
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(error(msgs).fields()).containsEntry('C', "22021")
                    .containsEntry('M', "invalid byte sequence for encoding \"UTF8\": 0xff");
            assertThat(RawClient.types(msgs)).doesNotContain("D");
            assertUsable(c);
        }
    }

    @Test
    void aNulInATextBindParameterIs22021() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('P', RawClient.parse("", "SELECT $1::text", 0));
            c.send('B', RawClient.bind("", "", "a\0b"));
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            assertThat(error(c.readUntilReady()).fields()).containsEntry('C', "22021")
                    .containsEntry('M', "invalid byte sequence for encoding \"UTF8\": 0x00");
            assertUsable(c);
        }
    }

    @Test
    void pgjdbcGets22021ForANulInAParameterAndCarriesOn() throws Exception {
        try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement("SELECT ?::text")) {
            p.setString(1, "a\0b");
            assertThatThrownBy(p::executeQuery).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22021"));
            p.setString(1, "ok");
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("ok");
            }
        }
    }
}
