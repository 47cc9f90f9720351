package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/**
 * PostgreSQL's casts between datums: explicit {@code CAST}/{@code ::}, and the
 * assignment casts applied when a value is stored into a column (numeric rounding to
 * the column's scale, varchar length checks, integer range checks).
 *
 * <p>PLACEHOLDER SCOPE: identity casts only; the rest is being written.
 */
public final class Casts {
    private Casts() {}

    /** Casts {@code value} of type {@code from} to {@code to}; NULL stays NULL. */
    public static Object cast(Object value, SqlType from, SqlType to) {
        if (value == null) return null;
        if (from.kind() == to.kind() && to.precision() == SqlType.UNSPECIFIED) return value;
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                "cast from " + from.displayName() + " to " + to.displayName() + " is not supported yet");
    }

    /**
     * The assignment cast applied when storing {@code value} into a column of type
     * {@code to} (INSERT, UPDATE, DEFAULT): like {@link #cast}, but a too-long string for
     * varchar(n)/char(n) is error 22001 instead of being truncated, and only the casts
     * PostgreSQL allows in assignment context are accepted (e.g. text to integer is 42804).
     */
    public static Object assign(Object value, SqlType from, SqlType to) {
        return cast(value, from, to);
    }
}
