package io.stillwater.slt;

import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a {@code statement error} / {@code query error} record expects: an optional SQLSTATE
 * ({@code pgcode XXXXX}) and a regular expression searched for in the error text. An empty
 * regex (plain SQLite {@code statement error}) accepts any error.
 */
public record ExpectedError(String regex, String sqlState) {
    public ExpectedError {
        regex = regex == null ? "" : regex;
        sqlState = sqlState == null ? "" : sqlState;
    }

    /** The compiled regex, or empty when it is blank. Throws PatternSyntaxException when invalid. */
    public Optional<Pattern> pattern() throws PatternSyntaxException {
        return regex.isBlank() ? Optional.empty() : Optional.of(Pattern.compile(regex));
    }

    @Override
    public String toString() {
        String s = sqlState.isEmpty() ? "" : "pgcode " + sqlState + " ";
        return (s + regex).strip();
    }
}
