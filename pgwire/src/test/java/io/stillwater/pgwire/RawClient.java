package io.stillwater.pgwire;

import java.nio.ByteBuffer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A byte-level protocol client for tests that need to send what no driver would. */
final class RawClient implements AutoCloseable {
    /** One backend message. */
    record Msg(char type, byte[] body) {
        String string() { return new String(body, 0, Math.max(0, body.length - 1), StandardCharsets.UTF_8); }

        /** ErrorResponse/NoticeResponse fields by code. */
        Map<Character, String> fields() {
            Map<Character, String> out = new LinkedHashMap<>();
            int i = 0;
            while (i < body.length && body[i] != 0) {
                char code = (char) body[i++];
                int end = i;
                while (body[end] != 0) end++;
                out.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
                i = end + 1;
            }
            return out;
        }
    }

    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;
    /** The BackendKeyData of a completed startup (0 before). */
    private int processId;
    private int secretKey;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Connects and completes startup; returns the messages up to ReadyForQuery. */
    static RawClient started(int port) throws IOException {
        RawClient c = new RawClient(port);
        List<Msg> startup = c.startup(Map.of("user", "raw"));
        if (startup.getLast().type() != 'Z') throw new IllegalStateException("startup failed: " + startup);
        return c;
    }

    List<Msg> startup(Map<String, String> params) throws IOException {
        Body b = new Body().int32(3 << 16);
        params.forEach((k, v) -> b.cstring(k).cstring(v));
        b.int8(0);
        sendUntyped(b.bytes());
        List<Msg> msgs = readUntilReady();
        for (Msg m : msgs) {
            if (m.type() == 'K') {
                ByteBuffer key = ByteBuffer.wrap(m.body());
                processId = key.getInt();
                secretKey = key.getInt();
            }
        }
        return msgs;
    }

    /** Sends a CancelRequest for this connection's session on a new connection, as libpq does. */
    void cancel(int port) throws IOException {
        try (RawClient c = new RawClient(port)) {
            c.sendUntyped(new Body().int32(80877102).int32(processId).int32(secretKey).bytes());
            c.readUntilClosed();
        }
    }

    /**
     * Runs a TLS handshake over this connection (after the server answered an SSLRequest
     * with {@code S}) as a client of {@code tls} verifying the name {@code host}; from then
     * on everything is sent and read encrypted.
     */
    void startTls(javax.net.ssl.SSLContext tls, String host) throws IOException {
        javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) tls.getSocketFactory()
                .createSocket(socket, host, socket.getPort(), true);
        javax.net.ssl.SSLParameters p = s.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS"); // check the certificate's name, as verify-full
        s.setSSLParameters(p);
        s.startHandshake();
        socket = s;
        in = new DataInputStream(s.getInputStream());
        out = new DataOutputStream(s.getOutputStream());
    }

    /** The underlying socket (to change its timeout or half-close it). */
    Socket socket() { return socket; }

    /** A length-prefixed packet without a type byte (startup phase). */
    void sendUntyped(byte[] body) throws IOException {
        out.writeInt(body.length + 4);
        out.write(body);
        out.flush();
    }

    void send(char type, byte[] body) throws IOException {
        out.writeByte(type);
        out.writeInt(body.length + 4);
        out.write(body);
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    int readByte() throws IOException { return in.read(); }

    /** The next message, or null at end of stream. */
    Msg read() throws IOException {
        int type;
        try {
            type = in.read();
        } catch (SocketException e) {
            return null; // reset by peer after it closed
        }
        if (type < 0) return null;
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new Msg((char) type, body);
    }

    List<Msg> readUntilReady() throws IOException {
        List<Msg> msgs = new ArrayList<>();
        while (true) {
            Msg m = read();
            if (m == null) return msgs;
            msgs.add(m);
            if (m.type() == 'Z') return msgs;
        }
    }

    /** Reads everything up to end of stream: true if the server closed the connection. */
    List<Msg> readUntilClosed() throws IOException {
        List<Msg> msgs = new ArrayList<>();
        try {
            for (Msg m = read(); m != null; m = read()) msgs.add(m);
        } catch (EOFException e) {
            // closed mid-message
        }
        return msgs;
    }

    static String types(List<Msg> msgs) {
        StringBuilder sb = new StringBuilder();
        for (Msg m : msgs) sb.append(m.type());
        return sb.toString();
    }

    @Override
    public void close() throws IOException { socket.close(); }

    /** Builds a message body. */
    static final class Body {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream data = new DataOutputStream(bytes);

        Body int8(int v) { return io(() -> data.writeByte(v)); }

        Body int16(int v) { return io(() -> data.writeShort(v)); }

        Body int32(int v) { return io(() -> data.writeInt(v)); }

        Body raw(byte[] v) { return io(() -> data.write(v)); }

        Body cstring(String s) { return io(() -> { data.write(s.getBytes(StandardCharsets.UTF_8)); data.writeByte(0); }); }

        byte[] bytes() { return bytes.toByteArray(); }

        private interface IoAction { void run() throws IOException; }

        private Body io(IoAction a) {
            try {
                a.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }
    }

    // ---- message builders ----

    static byte[] parse(String name, String sql, int... oids) {
        Body b = new Body().cstring(name).cstring(sql).int16(oids.length);
        for (int oid : oids) b.int32(oid);
        return b.bytes();
    }

    /** Bind with text parameters (null = SQL NULL) and all-text results. */
    static byte[] bind(String portal, String stmt, String... params) {
        Body b = new Body().cstring(portal).cstring(stmt).int16(0).int16(params.length);
        for (String p : params) {
            if (p == null) {
                b.int32(-1);
            } else {
                byte[] v = p.getBytes(StandardCharsets.UTF_8);
                b.int32(v.length).raw(v);
            }
        }
        return b.int16(0).bytes();
    }

    static byte[] execute(String portal, int maxRows) { return new Body().cstring(portal).int32(maxRows).bytes(); }

    static byte[] describe(char target, String name) { return new Body().int8(target).cstring(name).bytes(); }

    static byte[] query(String sql) { return new Body().cstring(sql).bytes(); }
}
