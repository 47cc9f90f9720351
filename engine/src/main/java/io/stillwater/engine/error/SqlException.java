package io.stillwater.engine.error;

/**
 * A user-facing error: a message a person can act on and its SQLSTATE. Everything the
 * engine rejects is reported with one of these; the wire layer turns it into an
 * ErrorResponse. {@code detail} and {@code hint} are optional (null when absent).
 */
public class SqlException extends RuntimeException {
    private final SqlState state;
    private final String detail;
    private final String hint;

    public SqlException(SqlState state, String message) { this(state, message, null, null, null); }

    public SqlException(SqlState state, String message, String detail, String hint) {
        this(state, message, detail, hint, null);
    }

    public SqlException(SqlState state, String message, String detail, String hint, Throwable cause) {
        super(message, cause);
        this.state = state;
        this.detail = detail;
        this.hint = hint;
    }

    public static SqlException of(SqlState state, String format, Object... args) {
        return new SqlException(state, String.format(format, args));
    }

    public SqlState state() { return state; }

    public String detail() { return detail; }

    public String hint() { return hint; }

    /**
     * PostgreSQL's CONTEXT field (where the error happened, e.g. {@code COPY t, line 3,
     * column b: "x"}), or null; subclasses that know one override it.
     */
    public String context() { return null; }

    /** Errors are data: the evaluation error this exception carries, for error collections. */
    /** This error as data; the read-time prefix ({@link EvalError#PREFIX}) is not part of it. */
    public EvalError toEvalError() {
        String m = getMessage();
        return new EvalError(state, m.startsWith(EvalError.PREFIX) ? m.substring(EvalError.PREFIX.length()) : m);
    }
}
