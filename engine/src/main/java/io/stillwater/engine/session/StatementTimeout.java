package io.stillwater.engine.session;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses PostgreSQL duration settings such as {@code statement_timeout}: "0", "500", "2s", "1min", "100ms". */
final class StatementTimeout {
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*(ms|s|min|h|d)?\\s*");

    private StatementTimeout() {}

    /** Milliseconds; 0 means no timeout. A bare number is milliseconds, as in PostgreSQL. */
    static long parseMillis(String value) {
        // Read at every statement: the usual value ("0", or a bare number of milliseconds) without the regex.
        if (isDigits(value)) return Long.parseLong(value);
        Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"statement_timeout\": \"" + value + "\"", null,
                    "Valid units for this parameter are \"ms\", \"s\", \"min\", \"h\", and \"d\".");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ms" -> n;
            case "s" -> n * 1000;
            case "min" -> n * 60_000;
            case "h" -> n * 3_600_000;
            default -> n * 86_400_000;
        };
    }

    private static boolean isDigits(String value) {
        if (value.isEmpty() || value.length() > 18) return false;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch < '0' || ch > '9') return false;
        }
        return true;
    }
}
