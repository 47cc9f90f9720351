package io.stillwater.pgwire.auth;

import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;

/**
 * Authentication ended without a session: the FATAL error the client gets, with
 * PostgreSQL's SQLSTATE and wording (28P01 for a failed password check whatever the
 * cause, 08P01 for a malformed exchange, 28000 for a connection the method refuses).
 * Carries no stack trace; never carries a password or proof.
 */
public final class AuthFailure extends RuntimeException {
    private final SqlState state;
    private final String detail;

    public AuthFailure(SqlState state, String message, String detail) {
        super(message, null, false, false);
        this.state = state;
        this.detail = detail;
    }

    /** 28P01 with PostgreSQL's message: the same for an unknown role, a role without a password and a wrong one. */
    public static AuthFailure passwordFailed(String user) {
        return new AuthFailure(SqlState.INVALID_PASSWORD, "password authentication failed for user \"" + user + "\"", null);
    }

    /** 08P01 {@code malformed SCRAM message} with what was wrong (PostgreSQL's wording). */
    static AuthFailure malformedScram(String detail) {
        return new AuthFailure(SqlState.PROTOCOL_VIOLATION, "malformed SCRAM message", detail);
    }

    public SqlState state() { return state; }

    public String detail() { return detail; }

    public Diagnostic diagnostic() {
        return new Diagnostic(Severity.FATAL, state.code(), getMessage(), detail, null);
    }
}
