package io.stillwater.pgwire.protocol;

import io.stillwater.engine.error.SqlState;

/**
 * The server cannot take a connection's input within its limits (the shared
 * {@link InputBudget} is spent). Unlike a {@link ProtocolViolation} the client did
 * nothing wrong; the outcome is the same: a FATAL ErrorResponse and that connection
 * closed, its buffered input released, every other connection untouched.
 */
public final class InputRefused extends RuntimeException {
    private final SqlState state;
    private final String detail;
    private final String hint;

    public InputRefused(SqlState state, String message, String detail, String hint) {
        super(message, null, false, false);
        this.state = state;
        this.detail = detail;
        this.hint = hint;
    }

    public SqlState state() { return state; }

    public String detail() { return detail; }

    public String hint() { return hint; }
}
