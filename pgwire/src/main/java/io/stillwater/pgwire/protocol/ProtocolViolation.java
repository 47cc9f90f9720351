package io.stillwater.pgwire.protocol;

import io.stillwater.engine.error.SqlState;

/**
 * A client broke the wire protocol (bad framing, unknown message, malformed body). The
 * connection is answered with a FATAL ErrorResponse and closed; the server and other
 * connections are unaffected.
 */
public final class ProtocolViolation extends RuntimeException {
    private final SqlState state;

    public ProtocolViolation(SqlState state, String message) {
        super(message, null, false, false);
        this.state = state;
    }

    public ProtocolViolation(String message) { this(SqlState.PROTOCOL_VIOLATION, message); }

    public SqlState state() { return state; }
}
