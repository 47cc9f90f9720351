package io.stillwater.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The one place that encodes backend messages: a type byte, an int32 length that
 * counts itself, and the body. Stateless, so one instance serves all channels.
 */
@ChannelHandler.Sharable
public final class BackendEncoder extends MessageToByteEncoder<BackendMessage> {
    public static final BackendEncoder INSTANCE = new BackendEncoder();

    private BackendEncoder() { super(BackendMessage.class); }

    @Override
    protected void encode(ChannelHandlerContext ctx, BackendMessage msg, ByteBuf out) {
        encode(msg, out);
    }

    /** Appends the wire form of {@code msg} to {@code out}. */
    public static void encode(BackendMessage msg, ByteBuf out) {
        if (msg instanceof BackendMessage.EncryptionResponse r) {
            out.writeByte(r.answer()); // the only unframed backend message
            return;
        }
        out.writeByte(typeOf(msg));
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        switch (msg) {
            case BackendMessage.EncryptionResponse r -> throw new AssertionError("handled above");
            case BackendMessage.AuthenticationOk a -> out.writeInt(0);
            case BackendMessage.AuthenticationCleartextPassword a -> out.writeInt(3);
            case BackendMessage.AuthenticationSasl a -> {
                out.writeInt(10);
                for (String mechanism : a.mechanisms()) cstring(out, mechanism);
                out.writeByte(0);
            }
            case BackendMessage.AuthenticationSaslContinue a -> { out.writeInt(11); out.writeBytes(a.data()); }
            case BackendMessage.AuthenticationSaslFinal a -> { out.writeInt(12); out.writeBytes(a.data()); }
            case BackendMessage.ParameterStatus p -> { cstring(out, p.name()); cstring(out, p.value()); }
            case BackendMessage.BackendKeyData k -> { out.writeInt(k.processId()); out.writeInt(k.secretKey()); }
            case BackendMessage.NegotiateProtocolVersion v -> {
                out.writeInt(v.newestMinorVersion());
                out.writeInt(v.unrecognizedOptions().size());
                for (String o : v.unrecognizedOptions()) cstring(out, o);
            }
            case BackendMessage.ReadyForQuery r -> out.writeByte(r.status());
            case BackendMessage.RowDescription d -> {
                out.writeShort(d.fields().size());
                for (BackendMessage.Field f : d.fields()) {
                    cstring(out, f.name());
                    out.writeInt(f.tableOid());
                    out.writeShort(f.columnNumber());
                    out.writeInt(f.typeOid());
                    out.writeShort(f.typeLength());
                    out.writeInt(f.typeModifier());
                    out.writeShort(f.format().code());
                }
            }
            case BackendMessage.DataRow r -> {
                out.writeShort(r.values().size());
                for (byte[] v : r.values()) {
                    if (v == null) {
                        out.writeInt(-1);
                    } else {
                        out.writeInt(v.length);
                        out.writeBytes(v);
                    }
                }
            }
            case BackendMessage.CommandComplete c -> cstring(out, c.tag());
            case BackendMessage.ParameterDescription p -> {
                out.writeShort(p.typeOids().size());
                for (int oid : p.typeOids()) out.writeInt(oid);
            }
            case BackendMessage.ErrorResponse e -> diagnostic(out, e.diagnostic());
            case BackendMessage.NoticeResponse n -> diagnostic(out, n.diagnostic());
            case BackendMessage.EmptyQueryResponse e -> {}
            case BackendMessage.ParseComplete p -> {}
            case BackendMessage.BindComplete b -> {}
            case BackendMessage.CloseComplete c -> {}
            case BackendMessage.NoData n -> {}
            case BackendMessage.PortalSuspended p -> {}
            case BackendMessage.CopyInResponse r -> copyResponse(out, r.columns());
            case BackendMessage.CopyOutResponse r -> copyResponse(out, r.columns());
            case BackendMessage.CopyData d -> out.writeBytes(d.data());
            case BackendMessage.CopyDone d -> {}
        }
        out.setInt(lengthAt, out.writerIndex() - lengthAt);
    }

    private static byte typeOf(BackendMessage msg) {
        return switch (msg) {
            case BackendMessage.EncryptionResponse r -> r.answer();
            case BackendMessage.AuthenticationOk a -> 'R';
            case BackendMessage.AuthenticationCleartextPassword a -> 'R';
            case BackendMessage.AuthenticationSasl a -> 'R';
            case BackendMessage.AuthenticationSaslContinue a -> 'R';
            case BackendMessage.AuthenticationSaslFinal a -> 'R';
            case BackendMessage.ParameterStatus p -> 'S';
            case BackendMessage.BackendKeyData k -> 'K';
            case BackendMessage.NegotiateProtocolVersion v -> 'v';
            case BackendMessage.ReadyForQuery r -> 'Z';
            case BackendMessage.RowDescription d -> 'T';
            case BackendMessage.DataRow r -> 'D';
            case BackendMessage.CommandComplete c -> 'C';
            case BackendMessage.EmptyQueryResponse e -> 'I';
            case BackendMessage.ParseComplete p -> '1';
            case BackendMessage.BindComplete b -> '2';
            case BackendMessage.CloseComplete c -> '3';
            case BackendMessage.NoData n -> 'n';
            case BackendMessage.PortalSuspended p -> 's';
            case BackendMessage.ParameterDescription p -> 't';
            case BackendMessage.ErrorResponse e -> 'E';
            case BackendMessage.NoticeResponse n -> 'N';
            case BackendMessage.CopyInResponse r -> 'G';
            case BackendMessage.CopyOutResponse r -> 'H';
            case BackendMessage.CopyData d -> 'd';
            case BackendMessage.CopyDone d -> 'c';
        };
    }

    private static void diagnostic(ByteBuf out, BackendMessage.Diagnostic d) {
        field(out, 'S', d.severity().name());
        field(out, 'V', d.severity().name());
        field(out, 'C', d.sqlState());
        field(out, 'M', d.message());
        if (d.detail() != null) field(out, 'D', d.detail());
        if (d.hint() != null) field(out, 'H', d.hint());
        if (d.context() != null) field(out, 'W', d.context());
        out.writeByte(0);
    }

    /** CopyInResponse / CopyOutResponse: text format overall and for each column. */
    private static void copyResponse(ByteBuf out, int columns) {
        out.writeByte(0);
        out.writeShort(columns);
        for (int i = 0; i < columns; i++) out.writeShort(0);
    }

    private static void field(ByteBuf out, char code, String value) {
        out.writeByte(code);
        cstring(out, value);
    }

    private static void cstring(ByteBuf out, String s) {
        // A NUL inside a value would end the C string early and desynchronise the client.
        out.writeCharSequence(s.indexOf('\0') >= 0 ? s.replace('\0', ' ') : s, StandardCharsets.UTF_8);
        out.writeByte(0);
    }
}
