package io.stillwater.pgwire.protocol;

import java.util.Arrays;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class PgDecoderTest {
    private static byte[] startup() {
        ByteBuffer b = ByteBuffer.allocate(100);
        b.putInt(0).putInt(3 << 16);
        for (String s : List.of("user", "u", "database", "d")) b.put(s.getBytes(StandardCharsets.UTF_8)).put((byte) 0);
        b.put((byte) 0);
        b.putInt(0, b.position());
        return Arrays.copyOf(b.array(), b.position());
    }

    private static byte[] message(char type, byte[] body) {
        return ByteBuffer.allocate(5 + body.length).put((byte) type).putInt(4 + body.length).put(body).array();
    }

    private static byte[] cstrings(String... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String p : parts) {
            out.writeBytes(p.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    /** A stream of messages and what the decoder must produce for it. */
    private record Script(byte[] bytes, List<FrontendMessage> expected) {}

    @Provide
    Arbitrary<Script> scripts() {
        Arbitrary<String> words = Arbitraries.strings().alpha().numeric().ofMaxLength(12);
        Arbitrary<Object[]> one = Arbitraries.oneOf(
                words.map(s -> new Object[] {message('Q', cstrings(s)), new FrontendMessage.Query(s)}),
                words.map(s -> new Object[] {message('E', ByteBuffer.allocate(s.getBytes(StandardCharsets.UTF_8).length + 5)
                        .put(cstrings(s)).putInt(7).array()), new FrontendMessage.Execute(s, 7)}),
                words.map(s -> new Object[] {message('D', ByteBuffer.allocate(s.getBytes(StandardCharsets.UTF_8).length + 2)
                        .put((byte) 'S').put(cstrings(s)).array()),
                        new FrontendMessage.Describe(FrontendMessage.Target.STATEMENT, s)}),
                words.map(s -> new Object[] {message('P', ByteBuffer.allocate(s.length() * 2 + 15)
                        .put(cstrings(s, "SELECT " + s)).putShort((short) 1).putInt(23).array()),
                        new FrontendMessage.Parse(s, "SELECT " + s, List.of(23))}),
                Arbitraries.just(new Object[] {message('S', new byte[0]), new FrontendMessage.Sync()}),
                Arbitraries.just(new Object[] {message('H', new byte[0]), new FrontendMessage.Flush()}));
        return one.list().ofMaxSize(8).map(items -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            List<FrontendMessage> expected = new ArrayList<>();
            out.writeBytes(startup());
            expected.add(new FrontendMessage.Startup(0, Map.of("user", "u", "database", "d")));
            for (Object[] item : items) {
                out.writeBytes((byte[]) item[0]);
                expected.add((FrontendMessage) item[1]);
            }
            return new Script(out.toByteArray(), expected);
        });
    }

    @Property(tries = 300)
    void anySplitOfTheByteStreamDecodesToTheSameMessages(@ForAll("scripts") Script script,
                                                        @ForAll("chunkSizes") List<Integer> chunks) {
        EmbeddedChannel ch = new EmbeddedChannel(new PgDecoder());
        int pos = 0;
        int c = 0;
        while (pos < script.bytes().length) {
            int n = Math.min(chunks.isEmpty() ? 1 : chunks.get(c++ % chunks.size()), script.bytes().length - pos);
            ch.writeInbound(Unpooled.wrappedBuffer(script.bytes(), pos, n));
            pos += n;
        }
        List<FrontendMessage> got = new ArrayList<>();
        for (Object m = ch.readInbound(); m != null; m = ch.readInbound()) got.add((FrontendMessage) m);
        assertThat(got).isEqualTo(script.expected());
        ch.finishAndReleaseAll();
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() { return Arbitraries.integers().between(1, 40).list().ofMinSize(1).ofMaxSize(10); }

    @Test
    void bindCarriesFormatsAndNullParameters() {
        EmbeddedChannel ch = new EmbeddedChannel(new PgDecoder());
        ch.writeInbound(Unpooled.wrappedBuffer(startup()));
        ch.readInbound();
        ByteBuffer body = ByteBuffer.allocate(64)
                .put(cstrings("portal", "stmt"))
                .putShort((short) 1).putShort((short) 1)     // all parameters binary
                .putShort((short) 2).putInt(-1).putInt(2).put(new byte[] {9, 8})
                .putShort((short) 0);                        // results: all text
        byte[] bytes = Arrays.copyOf(body.array(), body.position());
        ch.writeInbound(Unpooled.wrappedBuffer(message('B', bytes)));
        FrontendMessage.Bind bind = ch.readInbound();
        assertThat(bind.portalName()).isEqualTo("portal");
        assertThat(bind.statementName()).isEqualTo("stmt");
        assertThat(bind.paramFormats()).containsExactly(FormatCode.BINARY);
        assertThat(bind.paramValues().get(0)).isNull();
        assertThat(bind.paramValues().get(1)).containsExactly(9, 8);
        assertThat(bind.resultFormats()).isEmpty();
    }

    @Test
    void trailingBytesInABodyAreAViolationAndLaterInputIsIgnored() {
        EmbeddedChannel ch = new EmbeddedChannel(new PgDecoder());
        ch.writeInbound(Unpooled.wrappedBuffer(startup()));
        ch.readInbound();
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(message('S', new byte[] {1}))))
                .isInstanceOf(DecoderException.class)
                .hasCauseInstanceOf(ProtocolViolation.class)
                .hasMessageContaining("invalid message format");
        ch.writeInbound(Unpooled.wrappedBuffer(message('S', new byte[0])));
        assertThat((Object) ch.readInbound()).isNull();
    }

    @Test
    void cancelRequestEndsTheInput() {
        EmbeddedChannel ch = new EmbeddedChannel(new PgDecoder());
        byte[] cancel = ByteBuffer.allocate(16).putInt(16).putInt(PgDecoder.CANCEL_REQUEST_CODE).putInt(42).putInt(-7).array();
        ch.writeInbound(Unpooled.wrappedBuffer(cancel), Unpooled.wrappedBuffer(message('Q', cstrings("x"))));
        assertThat((Object) ch.readInbound()).isEqualTo(new FrontendMessage.CancelRequest(42, -7));
        assertThat((Object) ch.readInbound()).isNull();
    }
}
