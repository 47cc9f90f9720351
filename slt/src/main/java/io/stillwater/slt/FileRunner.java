package io.stillwater.slt;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Runs the records of one parsed script against one {@link Target}, in order, on the calling
 * thread, and counts an {@link Outcome} per record. Holds the per-file state the format
 * defines: the hash threshold, the label hashes, and the named connections.
 */
final class FileRunner {
    /** A record's outcome plus the problem description when it is not a success. */
    private record Result(Outcome outcome, Failure failure) {
        static final Result SUCCESS = new Result(Outcome.SUCCESS, null);
    }

    private record LabelEntry(String md5, Location location) {}

    private final Script script;
    private final Target target;
    private final SltOptions options;
    private final Sessions sessions;
    private final Rewriter rewriter;
    private final Map<String, LabelEntry> labels = new HashMap<>();
    private final EnumMap<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
    private final List<Failure> problems = new ArrayList<>();
    private int hashThreshold;
    private String halted = "";
    private boolean stoppedOnFailure;

    FileRunner(Script script, Target target, SltOptions options) {
        this.script = script;
        this.target = target;
        this.options = options;
        this.sessions = new Sessions(target);
        this.rewriter = new Rewriter(script);
    }

    /** True when --fail-fast stopped this file at a failure. */
    boolean stoppedOnFailure() {
        return stoppedOnFailure;
    }

    Rewriter rewriter() {
        return rewriter;
    }

    FileResult run(Duration elapsedBefore, long startNanos) {
        try {
            for (Record record : script.records()) {
                if (!record.appliesTo(options.engineName())) {
                    if (isTest(record)) {
                        count(new Result(Outcome.SKIPPED, null));
                    }
                    continue;
                }
                if (record instanceof Record.Halt h) {
                    halted = h.location().toString();
                    break;
                }
                Result r = execute(record);
                if (r == null) {
                    continue; // a directive, not a test
                }
                count(r);
                if (options.failFast() && r.outcome().isFailure(options.unsupportedIsFailure())) {
                    stoppedOnFailure = true;
                    break;
                }
            }
        } finally {
            sessions.close();
        }
        return new FileResult(script.file(), counts, problems,
                Duration.ofNanos(System.nanoTime() - startNanos).plus(elapsedBefore), halted, "");
    }

    private static boolean isTest(Record r) {
        return r instanceof Record.Statement || r instanceof Record.Query || r instanceof Record.QueryError
                || r instanceof Record.Simple;
    }

    private void count(Result r) {
        counts.merge(r.outcome(), 1, Integer::sum);
        if (r.failure() != null) {
            problems.add(r.failure());
        }
    }

    private Result execute(Record record) {
        return switch (record) {
            case Record.Statement s -> statement(s);
            case Record.QueryError q -> queryError(q);
            case Record.Query q -> query(q);
            case Record.Simple s -> simple(s);
            case Record.HashThreshold h -> {
                hashThreshold = h.threshold();
                yield null;
            }
            case Record.ResetServer r -> resetServer(r);
            case Record.Unsupported u -> fail(u.location(), Outcome.UNSUPPORTED, "", "", "", u.reason());
            case Record.Malformed m -> fail(m.location(), Outcome.MALFORMED, "", "", "", m.message());
            case Record.Halt h -> null;
        };
    }

    private Result resetServer(Record.ResetServer r) {
        if (!target.canReset()) {
            return fail(r.location(), Outcome.UNSUPPORTED, "", "", "",
                    "reset-server needs a fresh server, which only the embedded target provides; "
                            + "records after it run on the same server");
        }
        sessions.close();
        try {
            target.reset();
            return Result.SUCCESS;
        } catch (SQLException e) {
            return fail(r.location(), Outcome.STATEMENT_FAILURE, "", "a fresh server", SqlError.of(e).summary(),
                    "reset-server failed");
        }
    }

    // ---- statements ----------------------------------------------------------------------

    private Result statement(Record.Statement s) {
        long rows;
        try {
            Connection c = sessions.main();
            try (Statement st = c.createStatement()) {
                applyTimeout(st);
                boolean hasResults = st.execute(s.sql());
                rows = hasResults ? countRows(st.getResultSet()) : Math.max(0, st.getLargeUpdateCount());
            }
        } catch (SQLException e) {
            SqlError err = SqlError.of(e);
            return switch (s.expectation()) {
                case Record.StatementExpectation.Error(ExpectedError expected) -> errorMatches(expected, err)
                        ? Result.SUCCESS
                        : fail(s.location(), Outcome.STATEMENT_FAILURE, s.sql(), "error " + expected,
                                err.text(), "the statement failed with a different error");
                default -> err.isUnsupported()
                        ? fail(s.location(), Outcome.UNSUPPORTED, s.sql(), "", err.text(), err.summary())
                        : fail(s.location(), Outcome.STATEMENT_FAILURE, s.sql(), "success", err.text(),
                                "the statement failed: " + err.summary());
            };
        }
        return switch (s.expectation()) {
            case Record.StatementExpectation.Ok ok -> Result.SUCCESS;
            case Record.StatementExpectation.Count(long expected) -> expected == rows
                    ? Result.SUCCESS
                    : fail(s.location(), Outcome.STATEMENT_FAILURE, s.sql(), expected + " rows affected",
                            rows + " rows affected", "wrong number of rows affected");
            case Record.StatementExpectation.Error(ExpectedError expected) -> fail(s.location(),
                    Outcome.STATEMENT_FAILURE, s.sql(), "error " + expected, "success",
                    "the statement succeeded but an error was expected");
        };
    }

    private static long countRows(ResultSet rs) throws SQLException {
        long n = 0;
        try (rs) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    // ---- queries -------------------------------------------------------------------------

    private Result queryError(Record.QueryError q) {
        try {
            Connection c = sessions.main();
            try (Statement st = c.createStatement()) {
                applyTimeout(st);
                if (st.execute(q.sql())) {
                    // Read the rows: some servers report evaluation errors only while streaming.
                    countRows(st.getResultSet());
                }
            }
        } catch (SQLException e) {
            SqlError err = SqlError.of(e);
            return errorMatches(q.error(), err)
                    ? Result.SUCCESS
                    : fail(q.location(), Outcome.QUERY_ERROR_MISMATCH, q.sql(), "error " + q.error(), err.text(),
                            "the query failed with a different error");
        }
        return fail(q.location(), Outcome.QUERY_ERROR_MISMATCH, q.sql(), "error " + q.error(), "success",
                "the query succeeded but an error was expected");
    }

    private Result query(Record.Query q) {
        JdbcResults res;
        try {
            Connection c = sessions.main();
            try (Statement st = c.createStatement()) {
                applyTimeout(st);
                res = st.execute(q.sql())
                        ? JdbcResults.read(st.getResultSet())
                        : new JdbcResults(List.of(), List.of());
            }
        } catch (SQLException e) {
            SqlError err = SqlError.of(e);
            return err.isUnsupported()
                    ? fail(q.location(), Outcome.UNSUPPORTED, q.sql(), "", err.text(), err.summary())
                    : fail(q.location(), Outcome.QUERY_ERROR_MISMATCH, q.sql(), "results", err.text(),
                            "the query failed: " + err.summary());
        }
        int columns = q.types().size();
        if (res.columnNames().size() != columns) {
            return fail(q.location(), Outcome.WRONG_COLUMN_COUNT, q.sql(), columns + " columns",
                    res.columnNames().size() + " columns", "wrong number of columns");
        }
        List<List<String>> rows = new ArrayList<>(res.rows().size());
        for (List<Object> row : res.rows()) {
            List<String> rendered = new ArrayList<>(columns);
            for (int i = 0; i < columns; i++) {
                rendered.add(ValueRenderer.render(row.get(i), q.types().get(i), q.mode(), q.multiline()));
            }
            rows.add(rendered);
        }
        List<String> values = ResultSorter.sort(rows, q.sort());
        Result r = compare(q, res, rows, values);
        if (r.outcome() == Outcome.SUCCESS && !q.label().isEmpty()) {
            r = checkLabel(q, values);
        }
        if (options.rewriteResults() && r.outcome() != Outcome.SUCCESS && r.outcome() != Outcome.WRONG_COLUMN_COUNT) {
            rewriter.query(q, res.columnNames(), rows, values, hashThreshold);
        }
        return r;
    }

    private Result compare(Record.Query q, JdbcResults res, List<List<String>> rows, List<String> values) {
        if (q.checkColumnNames() && !q.columnNames().equals(res.columnNames())) {
            return fail(q.location(), Outcome.WRONG_COLUMN_NAMES, q.sql(), String.join(" ", q.columnNames()),
                    String.join(" ", res.columnNames()), "wrong column names");
        }
        int columns = Math.max(1, q.types().size());
        switch (q.expected()) {
            case ExpectedOutput.Hashed(int count, String md5) -> {
                String actual = ResultHasher.md5(values);
                if (values.size() != count) {
                    return fail(q.location(), Outcome.WRONG_ROW_COUNT, q.sql(),
                            count / columns + " rows (" + count + " values hashing to " + md5 + ")",
                            rows.size() + " rows (" + values.size() + " values hashing to " + actual + ")" + preview(values),
                            "wrong number of rows");
                }
                if (!actual.equals(md5)) {
                    return fail(q.location(), Outcome.WRONG_HASH, q.sql(), count + " values hashing to " + md5,
                            values.size() + " values hashing to " + actual + preview(values), "wrong hash");
                }
                return Result.SUCCESS;
            }
            case ExpectedOutput.Values(List<String> expected) -> {
                if (values.equals(expected) || cockroachSplitMatches(q, rows, expected)) {
                    return Result.SUCCESS;
                }
                if (values.size() != expected.size() && !q.multiline()) {
                    return fail(q.location(), Outcome.WRONG_ROW_COUNT, q.sql(),
                            rowCount(expected.size(), columns) + "\n" + show(expected),
                            rowCount(values.size(), columns) + "\n" + show(values), "wrong number of rows");
                }
                int at = 0;
                while (at < Math.min(values.size(), expected.size()) && values.get(at).equals(expected.get(at))) {
                    at++;
                }
                String where = q.multiline() ? "" : " (first difference: row " + (at / columns + 1) + ", column "
                        + (at % columns + 1) + ")";
                return fail(q.location(), Outcome.WRONG_VALUES, q.sql(), show(expected), show(values),
                        "wrong values" + where);
            }
        }
    }

    /**
     * Cockroach mode, several columns: Materialize splits rendered values on whitespace, so a
     * value with a space matches expected output that was split into columns.
     */
    private static boolean cockroachSplitMatches(Record.Query q, List<List<String>> rows, List<String> expected) {
        if (q.mode() != Mode.COCKROACH || q.types().size() < 2) {
            return false;
        }
        List<List<String>> split = new ArrayList<>();
        for (List<String> row : rows) {
            List<String> cols = new ArrayList<>();
            for (String v : row) {
                cols.addAll(SltParser.splitColumns(v, 2));
            }
            split.add(cols);
        }
        return ResultSorter.sort(split, q.sort()).equals(expected);
    }

    private Result checkLabel(Record.Query q, List<String> values) {
        String md5 = ResultHasher.md5(values);
        LabelEntry prior = labels.putIfAbsent(q.label(), new LabelEntry(md5, q.location()));
        if (prior == null || prior.md5().equals(md5)) {
            return Result.SUCCESS;
        }
        return fail(q.location(), Outcome.WRONG_HASH, q.sql(), "the results of " + prior.location()
                + " (label " + q.label() + ", hash " + prior.md5() + ")", values.size() + " values hashing to " + md5,
                "results differ from an earlier query with label " + q.label());
    }

    private static String rowCount(int values, int columns) {
        return values % columns == 0 ? values / columns + " rows" : values + " values";
    }

    private static String preview(List<String> values) {
        return values.isEmpty() ? "" : "\n" + show(values);
    }

    /** Up to 20 values, one per line. */
    private static String show(List<String> values) {
        if (values.isEmpty()) {
            return "(no rows)";
        }
        int limit = 20;
        String shown = String.join("\n", values.subList(0, Math.min(limit, values.size())));
        return values.size() > limit ? shown + "\n... (" + (values.size() - limit) + " more)" : shown;
    }

    // ---- simple ---------------------------------------------------------------------------

    private Result simple(Record.Simple s) {
        List<String> actual = new ArrayList<>();
        try {
            Connection c = sessions.simple(s.connection(), s.user());
            try (Statement st = c.createStatement()) {
                applyTimeout(st);
                boolean isResultSet = st.execute(s.sql());
                while (true) {
                    if (isResultSet) {
                        try (ResultSet rs = st.getResultSet()) {
                            int n = rs.getMetaData().getColumnCount();
                            long rowCount = 0;
                            while (rs.next()) {
                                List<String> cols = new ArrayList<>(n);
                                for (int i = 1; i <= n; i++) {
                                    String v = rs.getString(i);
                                    cols.add(v == null ? "NULL" : v);
                                }
                                actual.add(String.join(",", cols));
                                rowCount++;
                            }
                            actual.add("COMPLETE " + rowCount);
                        }
                    } else {
                        long updated = st.getLargeUpdateCount();
                        if (updated < 0) {
                            break;
                        }
                        actual.add("COMPLETE " + updated);
                    }
                    isResultSet = st.getMoreResults();
                }
            }
        } catch (SQLException e) {
            actual = new ArrayList<>(SqlError.of(e).lines());
        }
        List<String> expected = s.expected();
        List<String> comparable = s.multiline() ? actual : splitLines(actual);
        if (comparable.equals(expected)) {
            return Result.SUCCESS;
        }
        if (options.rewriteResults()) {
            rewriter.simple(s, actual);
        }
        return fail(s.location(), Outcome.WRONG_VALUES, s.sql(), String.join("\n", expected),
                String.join("\n", comparable), "wrong output of a simple block");
    }

    private static List<String> splitLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.addAll(List.of(l.split("\n", -1)));
        }
        return out;
    }

    // ---- helpers --------------------------------------------------------------------------

    private void applyTimeout(Statement st) throws SQLException {
        long seconds = options.statementTimeout().toSeconds();
        if (seconds > 0) {
            st.setQueryTimeout((int) Math.min(Integer.MAX_VALUE, seconds));
        }
    }

    static boolean errorMatches(ExpectedError expected, SqlError actual) {
        if (!expected.sqlState().isEmpty() && !expected.sqlState().equalsIgnoreCase(actual.sqlState())) {
            return false;
        }
        Optional<Pattern> p = expected.pattern();
        return p.isEmpty() || p.get().matcher(actual.text()).find() || p.get().matcher(actual.message()).find();
    }

    private static Result fail(Location at, Outcome outcome, String sql, String expected, String actual, String reason) {
        return new Result(outcome, new Failure(at, outcome, sql, expected, actual, reason));
    }
}
