package io.stillwater.slt;

import java.util.Locale;

/** What happened to one record. Every executed or skipped record gets exactly one. */
public enum Outcome {
    SUCCESS,
    /** A statement did not get its expected result: an error when ok was expected, success when an error was, a wrong error, a wrong row count. */
    STATEMENT_FAILURE,
    /** A query failed when results were expected, succeeded when an error was expected, or failed with a different error. */
    QUERY_ERROR_MISMATCH,
    WRONG_ROW_COUNT,
    WRONG_COLUMN_COUNT,
    WRONG_COLUMN_NAMES,
    WRONG_VALUES,
    /** Hashed results differ, or a label's results differ from an earlier query with the same label. */
    WRONG_HASH,
    /** Not run: excluded by skipif/onlyif for this engine name. */
    SKIPPED,
    /** The target answered SQLSTATE 0A000 (feature not supported) where success was expected, or the record needs something this target cannot do. */
    UNSUPPORTED,
    /** The record could not be parsed. */
    MALFORMED;

    /** The name used in reports: lower case with dashes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** True when this outcome fails the run. */
    public boolean isFailure(boolean unsupportedIsFailure) {
        return switch (this) {
            case SUCCESS, SKIPPED -> false;
            case UNSUPPORTED -> unsupportedIsFailure;
            default -> true;
        };
    }
}
