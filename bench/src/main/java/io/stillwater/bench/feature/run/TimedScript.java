package io.stillwater.bench.feature.run;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.feature.scenario.ScriptStatement;
import io.stillwater.bench.runner.SqlExecution;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Runs the statements of one script in order and times the span between its markers: the clock is
 * read just before the statement marked A is sent and just after every result of the statement
 * marked B has been read (all result sets, all rows), so the span covers the whole answer and
 * nothing of the untimed statements before A or after B.
 *
 * <p>A statement carrying {@code /* expect: V *}{@code /} must answer exactly one row whose columns,
 * rendered as text ({@code NULL} for SQL null) and joined by one space, equal V; anything else fails
 * the script with "wrong result". The check is done after the statement's clock reading, so it never
 * counts towards the span.
 *
 * <p>The executor and the clock are parameters so the timing can be tested with a fake clock and no
 * database. Stateless; the caller owns the executor's connection.
 */
public final class TimedScript {
    /** The longest a failure message quotes of a statement. */
    static final int QUOTE_LIMIT = 200;

    /** Sends one statement and reads every result to the end. */
    @FunctionalInterface
    public interface Executor {
        /**
         * @param collect whether the first result set's rows are wanted
         * @return when {@code collect}: the first result set's rows, each rendered as its columns'
         *     text joined by one space ({@code NULL} for null); else an empty list
         */
        List<String> execute(String sql, boolean collect) throws SQLException;
    }

    private TimedScript() {
    }

    /**
     * Runs {@code statements} (which must carry exactly one A and one B, A not after B, as
     * {@link io.stillwater.bench.feature.scenario.Scripts#parseBenchmark} guarantees) and returns the
     * timed span in the clock's units.
     *
     * @throws ScriptFailedException a statement failed or answered wrongly, naming it
     */
    public static long timed(List<ScriptStatement> statements, Executor executor, LongSupplier nanoClock)
            throws ScriptFailedException {
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (ScriptStatement s : statements) {
            if (s.startsTimer()) {
                start = nanoClock.getAsLong();
            }
            List<String> rows = send(s, executor);
            if (s.stopsTimer()) {
                end = nanoClock.getAsLong();
            }
            check(s, rows);
        }
        if (start == Long.MIN_VALUE || end == Long.MIN_VALUE) {
            throw new IllegalArgumentException("a benchmark script needs a statement marked /* A */ and one marked /* B */");
        }
        return end - start;
    }

    /** Runs {@code statements} untimed (markers are ignored), checking expectations. */
    public static void untimed(List<ScriptStatement> statements, Executor executor) throws ScriptFailedException {
        for (ScriptStatement s : statements) {
            check(s, send(s, executor));
        }
    }

    private static List<String> send(ScriptStatement s, Executor executor) throws ScriptFailedException {
        try {
            return executor.execute(s.sql(), s.expectedOrNull() != null);
        } catch (SQLException e) {
            throw new ScriptFailedException("statement `" + quote(s.sql()) + "` failed: " + SqlErrors.describe(e), e);
        }
    }

    private static void check(ScriptStatement s, List<String> rows) throws ScriptFailedException {
        String want = s.expectedOrNull();
        if (want == null) {
            return;
        }
        if (rows.size() == 1 && rows.get(0).equals(want)) {
            return;
        }
        String got = switch (rows.size()) {
            case 0 -> "no rows";
            case 1 -> "\"" + rows.get(0) + "\"";
            default -> rows.size() + " rows (first \"" + rows.get(0) + "\")";
        };
        throw new ScriptFailedException("wrong result from `" + quote(s.sql()) + "`: expected \"" + want + "\", got " + got,
                null);
    }

    /** The statement on one line, at most {@value #QUOTE_LIMIT} characters. */
    static String quote(String sql) {
        String one = sql.strip().replaceAll("\\s+", " ");
        return one.length() <= QUOTE_LIMIT ? one : one.substring(0, QUOTE_LIMIT) + "...";
    }

    /** Sends statements on {@code c} (autocommit), reading all results to the end ({@link SqlExecution}). */
    public static Executor jdbc(Connection c) {
        return (sql, collect) -> {
            List<String> rows = new ArrayList<>();
            for (List<String> row : SqlExecution.execute(c, sql, collect)) {
                rows.add(render(row));
            }
            return rows;
        };
    }

    /** A row as the scripts' expectations spell it: columns separated by one space, NULL for SQL NULL. */
    private static String render(List<String> row) {
        StringBuilder sb = new StringBuilder();
        for (String v : row) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(v == null ? "NULL" : v);
        }
        return sb.toString();
    }

    /** A script statement failed or answered wrongly; the message names the statement (and SQLSTATE). */
    public static final class ScriptFailedException extends Exception {
        ScriptFailedException(String message, Throwable cause) {
            super(message, cause);
        }

        /** The same failure with {@code where} (e.g. "init") in front. */
        ScriptFailedException in(String where) {
            return new ScriptFailedException(where + ": " + getMessage(), getCause());
        }
    }
}
