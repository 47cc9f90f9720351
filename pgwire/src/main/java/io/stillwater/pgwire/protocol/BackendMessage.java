package io.stillwater.pgwire.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every message the server sends. {@link BackendEncoder} is the only place that turns
 * them into bytes; everything else builds these values.
 */
public sealed interface BackendMessage {

    /** The single unframed byte answering SSLRequest/GSSENCRequest: 'N' = not supported. */
    record EncryptionResponse(byte answer) implements BackendMessage {
        public static final EncryptionResponse REFUSED = new EncryptionResponse((byte) 'N');
        public static final EncryptionResponse ACCEPTED = new EncryptionResponse((byte) 'S');
    }

    record AuthenticationOk() implements BackendMessage {}

    /** AuthenticationCleartextPassword: the client must send its password ('p'); only asked over TLS. */
    record AuthenticationCleartextPassword() implements BackendMessage {}

    /** AuthenticationSASL: the SASL mechanisms the server offers, in order of preference. */
    record AuthenticationSasl(List<String> mechanisms) implements BackendMessage {
        public AuthenticationSasl { mechanisms = List.copyOf(mechanisms); }
    }

    /** AuthenticationSASLContinue: a SASL challenge (SCRAM's server-first-message). */
    record AuthenticationSaslContinue(byte[] data) implements BackendMessage {
        public AuthenticationSaslContinue { data = data.clone(); }
    }

    /** AuthenticationSASLFinal: the outcome data of a successful SASL exchange (SCRAM's server-final-message). */
    record AuthenticationSaslFinal(byte[] data) implements BackendMessage {
        public AuthenticationSaslFinal { data = data.clone(); }
    }

    record ParameterStatus(String name, String value) implements BackendMessage {}

    record BackendKeyData(int processId, int secretKey) implements BackendMessage {}

    /** 'v': the newest minor protocol version we speak and the {@code _pq_.} options we ignored. */
    record NegotiateProtocolVersion(int newestMinorVersion, List<String> unrecognizedOptions) implements BackendMessage {
        public NegotiateProtocolVersion { unrecognizedOptions = List.copyOf(unrecognizedOptions); }
    }

    /** {@code status} is the transaction indicator: 'I', 'T' or 'E'. */
    record ReadyForQuery(char status) implements BackendMessage {}

    /** One column of a RowDescription. */
    record Field(String name, int tableOid, short columnNumber, int typeOid, short typeLength, int typeModifier,
                 FormatCode format) {}

    record RowDescription(List<Field> fields) implements BackendMessage {
        public RowDescription { fields = List.copyOf(fields); }
    }

    /** Column values already encoded in their wire format; {@code null} is SQL NULL. */
    record DataRow(List<byte[]> values) implements BackendMessage {
        public DataRow { values = Collections.unmodifiableList(new ArrayList<>(values)); }
    }

    record CommandComplete(String tag) implements BackendMessage {}

    record EmptyQueryResponse() implements BackendMessage {}

    record ParseComplete() implements BackendMessage {}

    record BindComplete() implements BackendMessage {}

    record CloseComplete() implements BackendMessage {}

    record NoData() implements BackendMessage {}

    record PortalSuspended() implements BackendMessage {}

    record ParameterDescription(List<Integer> typeOids) implements BackendMessage {
        public ParameterDescription { typeOids = List.copyOf(typeOids); }
    }

    /** 'G': the server is ready for {@code columns} text columns of COPY FROM STDIN data. */
    record CopyInResponse(int columns) implements BackendMessage {}

    /** 'H': COPY TO STDOUT data follows, {@code columns} text columns. */
    record CopyOutResponse(int columns) implements BackendMessage {}

    /** 'd': a chunk of COPY data (one line for COPY TO). */
    record CopyData(byte[] data) implements BackendMessage {}

    /** 'c': the end of COPY TO data. */
    record CopyDone() implements BackendMessage {}

    /** Severities as PostgreSQL spells them in the S and V fields. */
    enum Severity { ERROR, FATAL, PANIC, WARNING, NOTICE, DEBUG, INFO, LOG }

    /**
     * The fields shared by ErrorResponse and NoticeResponse. {@code detail} and
     * {@code hint} are null when absent, and so is {@code context} (PostgreSQL's CONTEXT,
     * e.g. {@code COPY t, line 3, column b: "x"}).
     */
    record Diagnostic(Severity severity, String sqlState, String message, String detail, String hint, String context) {
        /** Without a CONTEXT field. */
        public Diagnostic(Severity severity, String sqlState, String message, String detail, String hint) {
            this(severity, sqlState, message, detail, hint, null);
        }
    }

    record ErrorResponse(Diagnostic diagnostic) implements BackendMessage {}

    record NoticeResponse(Diagnostic diagnostic) implements BackendMessage {}
}
