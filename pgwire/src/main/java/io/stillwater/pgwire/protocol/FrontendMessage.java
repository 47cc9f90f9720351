package io.stillwater.pgwire.protocol;

import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every message a client can send, as {@link PgDecoder} produces it. Bodies are fully
 * parsed and validated by the decoder, so handlers never see raw bytes.
 *
 * <p>Parameter values stay as bytes ({@code null} for SQL NULL) because decoding them
 * needs the statement's parameter types, which only the session knows.
 */
public sealed interface FrontendMessage {

    /**
     * About how many bytes of memory this message holds (its strings and values, plus a
     * fixed overhead); the connection's input backpressure counts it.
     */
    default long approximateSize() {
        long overhead = 64;
        return overhead + switch (this) {
            case Query q -> q.sql().length();
            case Parse p -> p.sql().length() + p.statementName().length() + 4L * p.paramTypeOids().size();
            case Bind b -> {
                long n = b.portalName().length() + b.statementName().length();
                for (byte[] v : b.paramValues()) n += v == null ? 8 : v.length + 8;
                yield n;
            }
            case PasswordMessage p -> p.payload().length;
            case CopyData d -> d.data().length;
            case CopyFail f -> f.message().length();
            case Startup s -> s.parameters().toString().length();
            default -> 0;
        };
    }

    // ---- startup phase (no type byte) ----

    /** SSLRequest (code 80877103): the client asks to switch to TLS. */
    record SslRequest() implements FrontendMessage {}

    /** GSSENCRequest (code 80877104): the client asks for GSSAPI encryption. */
    record GssEncRequest() implements FrontendMessage {}

    /** CancelRequest (code 80877102), sent on a fresh connection. */
    record CancelRequest(int processId, int secretKey) implements FrontendMessage {}

    /**
     * StartupMessage for protocol 3.x. {@code minorVersion} is what the client asked
     * for; {@code parameters} keeps the client's order.
     */
    record Startup(int minorVersion, Map<String, String> parameters) implements FrontendMessage {
        public Startup { parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters)); }
    }

    // ---- regular phase ----

    /** 'p': a password (or SASL) response; unused under trust authentication. */
    record PasswordMessage(byte[] payload) implements FrontendMessage {}

    /**
     * A message whose framing was sound but whose content was not (query text that is not
     * UTF-8, a NUL inside a query string): answered with an ERROR like PostgreSQL's, and
     * the connection stays usable. {@code type} is the message's type byte ('Q', 'P', ...).
     */
    record Malformed(char type, SqlState state, String message) implements FrontendMessage {}

    /** 'Q': simple query, possibly several statements. */
    record Query(String sql) implements FrontendMessage {}

    /** 'P': Parse. {@code paramTypeOids} entries of 0 mean "infer". */
    record Parse(String statementName, String sql, List<Integer> paramTypeOids) implements FrontendMessage {
        public Parse { paramTypeOids = List.copyOf(paramTypeOids); }
    }

    /**
     * 'B': Bind. {@code paramFormats} and {@code resultFormats} follow the protocol's
     * convention: empty = all text, one entry = applies to all, else one per item.
     * {@code paramValues} entries are null for SQL NULL.
     */
    record Bind(String portalName, String statementName, List<FormatCode> paramFormats,
                List<byte[]> paramValues, List<FormatCode> resultFormats) implements FrontendMessage {
        public Bind {
            paramFormats = List.copyOf(paramFormats);
            paramValues = Collections.unmodifiableList(new ArrayList<>(paramValues));
            resultFormats = List.copyOf(resultFormats);
        }
    }

    /** What a Describe or Close message targets. */
    enum Target { STATEMENT, PORTAL }

    /** 'D': Describe a prepared statement ('S') or a portal ('P'). */
    record Describe(Target target, String name) implements FrontendMessage {}

    /** 'E': Execute a portal; {@code maxRows} 0 means no limit. */
    record Execute(String portalName, int maxRows) implements FrontendMessage {}

    /** 'C': Close a prepared statement or portal. */
    record Close(Target target, String name) implements FrontendMessage {}

    /** 'd': a chunk of COPY FROM STDIN data. */
    record CopyData(byte[] data) implements FrontendMessage {}

    /** 'c': the end of COPY FROM STDIN data. */
    record CopyDone() implements FrontendMessage {}

    /** 'f': the client abandons COPY FROM STDIN, saying why. */
    record CopyFail(String message) implements FrontendMessage {}

    /** 'S': Sync. */
    record Sync() implements FrontendMessage {}

    /** 'H': Flush. */
    record Flush() implements FrontendMessage {}

    /** 'X': Terminate. */
    record Terminate() implements FrontendMessage {}
}
