package io.stillwater.pgwire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.ParamType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one decoder of the frontend protocol: turns bytes into {@link FrontendMessage}s.
 *
 * <p>Phases: {@code STARTUP} reads length-prefixed startup packets (SSLRequest and
 * GSSENCRequest keep us in this phase, CancelRequest ends the connection's input, a
 * StartupMessage moves to {@code MESSAGES}); {@code MESSAGES} reads a type byte, an
 * int32 length and the body, waiting until the whole body has arrived.
 *
 * <p>Anything malformed throws {@link ProtocolViolation} after switching to
 * {@code DISCARD}, so the rest of that connection's input is ignored while the
 * handler sends the FATAL error and closes. Lengths are checked from the header,
 * before the body is buffered, so an oversized message never gets buffered.
 *
 * <p>Memory: a message whose body has not fully arrived holds a reservation of its
 * declared length in the server-wide {@link InputBudget} from its header until it is
 * complete (or the connection ends). When the budget cannot cover it the decoder throws
 * {@link InputRefused} (53200) and discards, so Netty's cumulation buffer is released
 * instead of growing. Complete messages are decoded at once and reserve nothing.
 *
 * <p>Owned by one channel; runs on its event loop only.
 */
public final class PgDecoder extends ByteToMessageDecoder {
    public static final int SSL_REQUEST_CODE = 80877103;
    public static final int GSSENC_REQUEST_CODE = 80877104;
    public static final int CANCEL_REQUEST_CODE = 80877102;
    public static final int PROTOCOL_3 = 3;

    /** Largest startup packet accepted (PostgreSQL and CrateDB use 10000). */
    public static final int MAX_STARTUP_LENGTH = 10_000;
    /** Largest regular message accepted, including its length field: 16 MiB, as common poolers use. */
    public static final int DEFAULT_MAX_MESSAGE_LENGTH = 16 << 20;
    /**
     * Largest password or SASL message ('p') accepted, length field included: PostgreSQL's
     * PG_MAX_AUTH_TOKEN_LENGTH. Authentication happens before a client has proven anything,
     * so its messages get a small bound of their own.
     */
    public static final int MAX_PASSWORD_MESSAGE_LENGTH = 65535;

    private enum Phase { STARTUP, MESSAGES, DISCARD }

    private final int maxMessageLength;
    private final InputBudget budget;
    private Phase phase = Phase.STARTUP;
    /** Bytes this connection holds in {@link #budget} for its incomplete message; 0 when none. */
    private long reservation;

    public PgDecoder() { this(DEFAULT_MAX_MESSAGE_LENGTH); }

    /** A decoder with a budget of its own (tests and tools); servers share one budget over all connections. */
    public PgDecoder(int maxMessageLength) { this(maxMessageLength, new InputBudget(InputBudget.DEFAULT_LIMIT)); }

    public PgDecoder(int maxMessageLength, InputBudget budget) {
        this.maxMessageLength = maxMessageLength;
        this.budget = budget;
    }

    /** Bytes this connection has reserved in the shared budget now (event loop only). */
    long reservation() { return reservation; }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            switch (phase) {
                case STARTUP -> decodeStartup(in, out);
                case MESSAGES -> decodeMessage(in, out);
                case DISCARD -> in.skipBytes(in.readableBytes());
            }
        } catch (ProtocolViolation | InputRefused e) {
            phase = Phase.DISCARD;
            releaseReservation();
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        releaseReservation(); // the connection ended with a message half received
    }

    private void releaseReservation() {
        if (reservation > 0) budget.release(reservation);
        reservation = 0;
    }

    /** Reserves the rest of a message whose header arrived but whose body has not, or refuses the connection. */
    private void reserveIncomplete(byte type, int length) {
        if (reservation > 0) return; // reserved when the header arrived
        long bytes = 1L + length;
        if (!budget.tryReserve(bytes)) {
            throw new InputRefused(SqlState.OUT_OF_MEMORY, "out of memory: too much client input is buffered",
                    "A message of type '" + printable(type) + "' and " + bytes + " bytes cannot be buffered: incomplete "
                            + "messages of all connections already hold " + ParamType.ByteSizeType.human(budget.reserved())
                            + " of the server's " + ParamType.ByteSizeType.human(budget.limit()) + " input buffer limit.",
                    "Retry later, or send smaller messages. The limit is set with stillwater serve --max-buffered-input.");
        }
        reservation = bytes;
    }

    private void decodeStartup(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) return;
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_LENGTH) {
            throw new ProtocolViolation("invalid length of startup packet: " + length);
        }
        if (in.readableBytes() < length) return;
        in.skipBytes(4);
        Body body = new Body(in.readSlice(length - 4));
        int code = body.int32();
        switch (code) {
            case SSL_REQUEST_CODE -> {
                body.end();
                // As PostgreSQL since CVE-2021-23214: bytes sent before the answer to an
                // SSLRequest were not encrypted and may have been injected; refuse them.
                if (in.isReadable()) throw new ProtocolViolation("received unencrypted data after SSL request");
                out.add(new FrontendMessage.SslRequest());
            }
            case GSSENC_REQUEST_CODE -> { body.end(); out.add(new FrontendMessage.GssEncRequest()); }
            case CANCEL_REQUEST_CODE -> {
                int pid = body.int32();
                int secret = body.int32();
                body.end();
                phase = Phase.DISCARD; // nothing may follow a cancel request
                out.add(new FrontendMessage.CancelRequest(pid, secret));
            }
            default -> {
                int major = code >>> 16;
                int minor = code & 0xFFFF;
                if (major != PROTOCOL_3) {
                    throw new ProtocolViolation(SqlState.FEATURE_NOT_SUPPORTED,
                            "unsupported frontend protocol " + major + "." + minor
                                    + ": server supports 3.0 to 3.0");
                }
                Map<String, String> params = new LinkedHashMap<>();
                try {
                    while (true) {
                        String name = body.cstring();
                        if (name.isEmpty()) break;
                        params.put(name, body.cstring());
                    }
                } catch (SqlException e) {
                    throw new ProtocolViolation(e.state(), e.getMessage()); // no session yet: FATAL
                }
                body.end();
                phase = Phase.MESSAGES;
                out.add(new FrontendMessage.Startup(minor, params));
            }
        }
    }

    private void decodeMessage(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 5) return;
        int start = in.readerIndex();
        byte type = in.getByte(start);
        int length = in.getInt(start + 1);
        if (length < 4) {
            throw new ProtocolViolation("invalid message length " + length + " for message type '" + printable(type) + "'");
        }
        if (length > maxMessageLength) {
            throw new ProtocolViolation("message of type '" + printable(type) + "' is too large: " + length
                    + " bytes (the limit is " + maxMessageLength + " bytes, "
                    + ParamType.ByteSizeType.human(maxMessageLength) + ", set with stillwater serve --max-message-size)");
        }
        if (type == 'p' && length > MAX_PASSWORD_MESSAGE_LENGTH) {
            throw new ProtocolViolation("invalid password packet size: " + length + " bytes (the limit is "
                    + MAX_PASSWORD_MESSAGE_LENGTH + ")");
        }
        if (in.readableBytes() < 1 + length) {
            reserveIncomplete(type, length);
            return;
        }
        releaseReservation();
        in.skipBytes(5);
        Body body = new Body(in.readSlice(length - 4));
        FrontendMessage message;
        try {
            message = parse(type, body);
            body.end();
        } catch (SqlException e) {
            // The whole message was consumed, so the stream is still in step: an ERROR, not FATAL.
            message = new FrontendMessage.Malformed((char) type, e.state(), e.getMessage());
        }
        out.add(message);
    }

    private static FrontendMessage parse(byte type, Body b) {
        return switch (type) {
            case 'Q' -> {
                String sql = b.cstring();
                // PostgreSQL: a NUL inside the query string leaves bytes after the terminator.
                if (b.remaining() > 0) throw new SqlException(SqlState.PROTOCOL_VIOLATION, "invalid message format");
                yield new FrontendMessage.Query(sql);
            }
            case 'P' -> {
                String name = b.cstring();
                String sql = b.cstring();
                int n = b.count("parameter types");
                List<Integer> oids = new ArrayList<>(n);
                for (int i = 0; i < n; i++) oids.add(b.int32());
                yield new FrontendMessage.Parse(name, sql, oids);
            }
            case 'B' -> {
                String portal = b.cstring();
                String stmt = b.cstring();
                List<FormatCode> paramFormats = b.formats();
                int n = b.count("parameters");
                List<byte[]> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int len = b.int32();
                    if (len < -1) throw new ProtocolViolation("invalid parameter length " + len + " in Bind message");
                    values.add(len == -1 ? null : b.bytes(len));
                }
                List<FormatCode> resultFormats = b.formats();
                if (paramFormats.size() > 1 && paramFormats.size() != n) {
                    throw new ProtocolViolation("bind message has " + paramFormats.size()
                            + " parameter formats but " + n + " parameters");
                }
                yield new FrontendMessage.Bind(portal, stmt, paramFormats, values, resultFormats);
            }
            case 'D' -> new FrontendMessage.Describe(b.target("Describe"), b.cstring());
            case 'E' -> {
                String portal = b.cstring();
                yield new FrontendMessage.Execute(portal, Math.max(0, b.int32()));
            }
            case 'C' -> new FrontendMessage.Close(b.target("Close"), b.cstring());
            case 'S' -> new FrontendMessage.Sync();
            case 'H' -> new FrontendMessage.Flush();
            case 'X' -> new FrontendMessage.Terminate();
            case 'p' -> new FrontendMessage.PasswordMessage(b.bytes(b.remaining()));
            case 'd' -> new FrontendMessage.CopyData(b.bytes(b.remaining()));
            case 'c' -> new FrontendMessage.CopyDone();
            case 'f' -> new FrontendMessage.CopyFail(b.cstring());
            default -> throw new ProtocolViolation("invalid frontend message type " + (type & 0xFF));
        };
    }

    private static String printable(byte type) {
        return type >= 0x20 && type < 0x7F ? String.valueOf((char) type) : "\\x" + Integer.toHexString(type & 0xFF);
    }

    /** Bounds-checked reads from one message body; overruns are protocol violations. */
    private static final class Body {
        private final ByteBuf buf;

        Body(ByteBuf buf) { this.buf = buf; }

        int remaining() { return buf.readableBytes(); }

        private void need(int n) {
            if (buf.readableBytes() < n) throw new ProtocolViolation("insufficient data left in message");
        }

        int int32() { need(4); return buf.readInt(); }

        short int16() { need(2); return buf.readShort(); }

        /** A count of following items; PostgreSQL reads these as unsigned 16-bit. */
        int count(String what) { return int16() & 0xFFFF; }

        byte[] bytes(int n) {
            need(n);
            byte[] out = new byte[n];
            buf.readBytes(out);
            return out;
        }

        String cstring() {
            int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
            if (end < 0) throw new ProtocolViolation("invalid string in message: missing terminator");
            int len = end - buf.readerIndex();
            ByteBuffer nio = buf.nioBuffer(buf.readerIndex(), len);
            buf.skipBytes(len + 1);
            return Utf8Text.decode(nio, false); // 22021, reported per message
        }

        List<FormatCode> formats() {
            int n = count("formats");
            List<FormatCode> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                short code = int16();
                if (code != 0 && code != 1) throw new ProtocolViolation("unsupported format code: " + code);
                out.add(code == 0 ? FormatCode.TEXT : FormatCode.BINARY);
            }
            return out;
        }

        FrontendMessage.Target target(String message) {
            need(1);
            byte t = buf.readByte();
            return switch (t) {
                case 'S' -> FrontendMessage.Target.STATEMENT;
                case 'P' -> FrontendMessage.Target.PORTAL;
                default -> throw new ProtocolViolation("invalid " + message + " message subtype " + (t & 0xFF));
            };
        }

        void end() {
            if (buf.isReadable()) throw new ProtocolViolation("invalid message format");
        }
    }
}
