package io.stillwater.engine.copy;

import io.stillwater.engine.error.SqlException;

/**
 * An error while reading COPY data, with PostgreSQL's CONTEXT naming where it happened:
 * {@code COPY t, line 3, column b: "x"} for a value, {@code COPY t, line 3: "1\t2\t3"}
 * for a whole line.
 */
public final class CopyError extends SqlException {
    private final String context;

    CopyError(SqlException error, String context) {
        super(error.state(), error.getMessage(), error.detail(), error.hint());
        this.context = context;
    }

    @Override
    public String context() { return context; }

    /** PostgreSQL shows at most this many characters of a line or value in CONTEXT. */
    static final int MAX_DISPLAY = 100;

    /** {@code text} cut to {@link #MAX_DISPLAY} characters with "..." as PostgreSQL's limit_printout_length. */
    static String display(String text) {
        return text.length() <= MAX_DISPLAY ? text : text.substring(0, MAX_DISPLAY) + "...";
    }
}
