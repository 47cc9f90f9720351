package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/**
 * PostgreSQL's text representation of datums: the output format (what {@code psql}
 * prints and the wire's text format sends) and the input format (string literals,
 * text-format parameters, {@code '...'::type}).
 *
 * <p>PLACEHOLDER SCOPE: being written.
 */
public final class DatumText {
    private DatumText() {}

    /** PostgreSQL output format of {@code value} (not null) of type {@code type}. */
    public static String format(SqlType type, Object value) {
        return String.valueOf(value);
    }

    /**
     * Parses PostgreSQL input format into a datum of {@code type}; bad input is error
     * 22P02 (or 22007/22008 for dates, 22003 for out-of-range numbers).
     */
    public static Object parse(SqlType type, String text) {
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "parsing " + type + " is not supported yet");
    }
}
