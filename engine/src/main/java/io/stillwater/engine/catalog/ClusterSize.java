package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A replica size. Stillwater replicas are in-process, so a size only chooses the number
 * of maintenance worker threads. Accepted spellings: {@code 'scale=1,workers=N'} (the
 * form of Materialize's test sizes; spaces allowed around {@code ,} and {@code =}) and
 * {@code 'N'} (Materialize's numbered test sizes, one process of N workers), N in
 * 1..{@value #MAX_WORKERS}. The text is kept as the user wrote it (trimmed), as
 * Materialize shows sizes; {@code workers} is derived from it.
 */
public record ClusterSize(String text, int workers) {
    public static final int MAX_WORKERS = 64;

    private static final Pattern SCALED = Pattern.compile("scale\\s*=\\s*1\\s*,\\s*workers\\s*=\\s*(\\d{1,9})");
    private static final Pattern NUMBERED = Pattern.compile("(\\d{1,9})");

    public ClusterSize {
        if (workers < 1 || workers > MAX_WORKERS) throw new IllegalArgumentException("workers out of range: " + workers);
    }

    /** The size {@code 'scale=1,workers=N'}. */
    public static ClusterSize ofWorkers(int workers) { return new ClusterSize("scale=1,workers=" + workers, workers); }

    /** Parses a SIZE option's value; 22023 naming the accepted forms if it is not one. */
    public static ClusterSize parse(String text) {
        String t = text == null ? "" : text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        Matcher m = SCALED.matcher(lower);
        Matcher n = NUMBERED.matcher(lower);
        String digits = m.matches() ? m.group(1) : n.matches() ? n.group(1) : null;
        if (digits != null) {
            int w = Integer.parseInt(digits);
            if (w >= 1 && w <= MAX_WORKERS) return new ClusterSize(t, w);
        }
        throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unknown cluster replica size '" + t + "'", null,
                "Use 'scale=1,workers=N' or 'N', with N from 1 to " + MAX_WORKERS + ".");
    }
}
