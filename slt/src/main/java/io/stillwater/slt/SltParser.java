package io.stillwater.slt;

import java.util.regex.PatternSyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses sqllogictest scripts: the SQLite format plus the Materialize extensions.
 *
 * <p>Records are separated by blank lines (a line of only whitespace counts as blank); lines
 * starting with {@code #} are comments, and on a record's first line everything from {@code #}
 * on is a comment. A record that cannot be parsed becomes a {@link Record.Malformed} with its
 * location, and parsing resumes after the next blank line, so one bad record never hides the
 * rest of the file. The parser is stateless between calls; within a call it tracks the
 * {@code mode} directive and the pending {@code skipif}/{@code onlyif} conditions.
 */
public final class SltParser {
    private static final Pattern HASH_LINE = Pattern.compile("(\\d+) values hashing to ([0-9a-fA-F]+)");
    private static final Pattern ERROR_SPEC =
            Pattern.compile("^(?:pgcode\\s+([A-Za-z0-9]{5})(?:\\s|$))?\\s*(.*)$", Pattern.DOTALL);
    /** CockroachDB's stand-in for a literal space inside a value, in cockroach mode. */
    static final String SPACE_MARK = "\u2420";

    private final String file;
    private final List<String> lines;
    private final List<Record> records = new ArrayList<>();
    private List<Condition> pending = new ArrayList<>();
    /** Line index of the first pending condition. */
    private int pendingStart;
    private Mode mode = Mode.STANDARD;

    private SltParser(String file, List<String> lines) {
        this.file = file;
        this.lines = lines;
    }

    /** Parses a whole script. Never throws for bad input: bad records come back as Malformed. */
    public static Script parse(String file, String content) {
        boolean endsWithNewline = content.endsWith("\n");
        String body = endsWithNewline ? content.substring(0, content.length() - 1) : content;
        List<String> lines = body.isEmpty() ? List.of() : Arrays.asList(body.split("\r?\n", -1));
        lines = lines.stream().map(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l).toList();
        SltParser p = new SltParser(file, lines);
        p.parseAll();
        return new Script(file, lines, endsWithNewline, p.records);
    }

    private void parseAll() {
        int i = 0;
        while (i < lines.size()) {
            String header = stripComment(lines.get(i)).strip();
            if (header.isEmpty()) {
                if (lines.get(i).isBlank() && !pending.isEmpty()) {
                    // As in SQLite's runner, conditions belong to the record they start: a blank
                    // line ends that record, so they would guard nothing. Say so instead of guessing.
                    emit(new Record.Malformed(location(pendingStart), pending,
                            "skipif/onlyif must directly precede the record it guards (a blank line follows it)"));
                }
                i++;
                continue;
            }
            try {
                i = parseRecord(i, header);
            } catch (MalformedException e) {
                emit(new Record.Malformed(location(e.line), pending, e.getMessage()));
                i = bodyEnd(i + 1);
            }
        }
        if (!pending.isEmpty()) {
            emit(new Record.Malformed(location(pendingStart), pending,
                    "skipif/onlyif at the end of the file guards no record"));
        }
    }

    /** Parses the record whose first line is {@code start}; returns the index to continue from. */
    private int parseRecord(int start, String header) {
        String[] words = header.split("\\s+");
        String keyword = words[0];
        Location loc = location(start);
        switch (keyword) {
            case "skipif", "onlyif" -> {
                if (words.length < 2) {
                    throw new MalformedException(start, keyword + " needs an engine name, e.g. '" + keyword + " postgresql'");
                }
                if (pending.isEmpty()) {
                    pendingStart = start;
                }
                pending.add(new Condition(
                        keyword.equals("skipif") ? Condition.Kind.SKIPIF : Condition.Kind.ONLYIF, words[1]));
                return start + 1;
            }
            case "statement" -> {
                return parseStatement(start, header, words);
            }
            case "query" -> {
                return parseQuery(start, header, words);
            }
            case "simple" -> {
                return parseSimple(start, words);
            }
            case "hash-threshold" -> {
                if (words.length < 2 || !words[1].matches("\\d{1,9}")) {
                    throw new MalformedException(start, "hash-threshold needs a non-negative integer: '" + header + "'");
                }
                emit(new Record.HashThreshold(loc, pending, Integer.parseInt(words[1])));
                return start + 1;
            }
            case "halt" -> {
                emit(new Record.Halt(loc, pending));
                return start + 1;
            }
            case "reset-server" -> {
                emit(new Record.ResetServer(loc, pending));
                return start + 1;
            }
            case "mode" -> {
                String m = words.length < 2 ? "" : words[1];
                mode = switch (m) {
                    case "cockroach" -> Mode.COCKROACH;
                    case "standard", "sqlite" -> Mode.STANDARD;
                    default -> throw new MalformedException(start,
                            "unknown mode '" + m + "' (expected cockroach, standard or sqlite)");
                };
                return start + 1;
            }
            case "subtest", "user", "kv-batch-size" -> {
                // CockroachDB directives that carry no test (Materialize ignores them too).
                return start + 1;
            }
            case "copy" -> {
                emit(new Record.Unsupported(loc, pending, "the 'copy' directive is not supported by this runner"));
                return start + 1;
            }
            default -> throw new MalformedException(start, "unknown record type '" + keyword
                    + "' (expected statement, query, simple, hash-threshold, skipif, onlyif, halt, mode or reset-server)");
        }
    }

    private int parseStatement(int start, String header, String[] words) {
        String disposition = words.length < 2 ? "" : words[1];
        Record.StatementExpectation expectation = switch (disposition) {
            case "ok", "OK" -> new Record.StatementExpectation.Ok();
            case "count" -> {
                if (words.length < 3 || !words[2].matches("\\d{1,18}")) {
                    throw new MalformedException(start, "statement count needs a row count: '" + header + "'");
                }
                yield new Record.StatementExpectation.Count(Long.parseLong(words[2]));
            }
            case "error" -> new Record.StatementExpectation.Error(parseError(start, header, "error"));
            default -> throw new MalformedException(start,
                    "statement must be 'ok', 'count N' or 'error [pgcode XXXXX] [regex]': '" + header + "'");
        };
        int end = bodyEnd(start + 1);
        String sql = sql(start + 1, end);
        if (sql.isBlank()) {
            throw new MalformedException(start, "statement record has no SQL");
        }
        emit(new Record.Statement(location(start), pending, expectation, sql));
        return end;
    }

    private ExpectedError parseError(int line, String header, String afterWord) {
        int at = header.indexOf(" " + afterWord);
        String rest = at < 0 ? "" : header.substring(at + afterWord.length() + 1);
        rest = rest.startsWith(" ") ? rest.substring(1) : rest;
        Matcher m = ERROR_SPEC.matcher(rest);
        if (!m.matches()) {
            throw new MalformedException(line, "cannot read expected error: '" + header + "'");
        }
        ExpectedError error = new ExpectedError(m.group(2), m.group(1) == null ? "" : m.group(1).toUpperCase(Locale.ROOT));
        try {
            error.pattern();
        } catch (PatternSyntaxException e) {
            throw new MalformedException(line, "invalid error regex '" + error.regex() + "': " + e.getDescription());
        }
        if (rest.startsWith("pgcode") && error.sqlState().isEmpty()) {
            throw new MalformedException(line, "pgcode needs a five-character SQLSTATE: '" + header + "'");
        }
        return error;
    }

    private int parseQuery(int start, String header, String[] words) {
        if (words.length >= 2 && words[1].equals("error")) {
            ExpectedError error = parseError(start, header, "error");
            int end = bodyEnd(start + 1);
            String sql = sql(start + 1, end);
            if (sql.isBlank()) {
                throw new MalformedException(start, "query error record has no SQL");
            }
            emit(new Record.QueryError(location(start), pending, error, sql));
            return end;
        }
        if (words.length < 2) {
            throw new MalformedException(start, "query needs a type string (letters T, I, R, B, O): '" + header + "'");
        }
        List<ColumnType> types = new ArrayList<>();
        for (char c : words[1].toCharArray()) {
            ColumnType t = ColumnType.ofLetter(c);
            if (t == null) {
                throw new MalformedException(start, "unknown type letter '" + c + "' in '" + words[1]
                        + "' (expected T, I, R, B or O)");
            }
            types.add(t);
        }
        SortMode sort = SortMode.NOSORT;
        boolean colnames = false;
        boolean multiline = false;
        if (words.length >= 3) {
            for (String option : words[2].split(",")) {
                switch (option) {
                    case "nosort" -> sort = SortMode.NOSORT;
                    case "rowsort" -> sort = SortMode.ROWSORT;
                    case "valuesort" -> sort = SortMode.VALUESORT;
                    case "colnames" -> colnames = true;
                    case "multiline" -> multiline = true;
                    default -> {
                        if (option.startsWith("partialsort")) {
                            sort = SortMode.ROWSORT; // as Materialize: a full sort is a valid partial sort check
                        } else {
                            throw new MalformedException(start, "unknown query option '" + option
                                    + "' (expected nosort, rowsort, valuesort, colnames or multiline)");
                        }
                    }
                }
            }
        }
        if (multiline && (colnames || sort != SortMode.NOSORT)) {
            throw new MalformedException(start, "the multiline option cannot be combined with other options");
        }
        String label = words.length >= 4 ? words[3] : "";

        int j = start + 1;
        while (j < lines.size() && !lines.get(j).isBlank() && !lines.get(j).strip().equals("----")) {
            j++;
        }
        int sqlEnd = j;
        String sql = sql(start + 1, sqlEnd);
        if (sql.isBlank()) {
            throw new MalformedException(start, "query record has no SQL");
        }
        if (j >= lines.size() || lines.get(j).isBlank()) {
            // No "----": the query must return no rows.
            emit(new Record.Query(location(start), pending, types, sort, label, false, List.of(), multiline, mode,
                    sql, new ExpectedOutput.Values(List.of()), new OutputSpan(sqlEnd, -1, sqlEnd, sqlEnd)));
            return j;
        }
        int separator = j;
        int outStart = separator + 1;
        if (multiline) {
            int k = outStart;
            while (k < lines.size() && !lines.get(k).equals("EOF")) {
                k++;
            }
            if (k >= lines.size()) {
                throw new MalformedException(start, "multiline query output must end with a line 'EOF'");
            }
            String text = String.join("\n", lines.subList(outStart, k));
            emit(new Record.Query(location(start), pending, types, sort, label, false, List.of(), true, mode,
                    sql, new ExpectedOutput.Values(List.of(text)), new OutputSpan(sqlEnd, separator, outStart, k)));
            return k + 1;
        }
        int end = bodyEnd(outStart);
        List<String> out = lines.subList(outStart, end);
        List<String> names = List.of();
        if (colnames) {
            if (out.isEmpty()) {
                throw new MalformedException(start, "colnames expects a line of column names after '----'");
            }
            names = Arrays.stream(out.get(0).split(" ")).filter(s -> !s.isEmpty())
                    .map(s -> s.replace(SPACE_MARK, " ")).toList();
            out = out.subList(1, out.size());
        }
        ExpectedOutput expected;
        Matcher hash = out.size() == 1 ? HASH_LINE.matcher(out.get(0).strip()) : null;
        if (hash != null && hash.matches()) {
            expected = new ExpectedOutput.Hashed(Integer.parseInt(hash.group(1)), hash.group(2).toLowerCase(Locale.ROOT));
        } else if (mode == Mode.COCKROACH) {
            List<List<String>> rows = new ArrayList<>();
            for (String line : out) {
                List<String> cols = splitColumns(line, types.size()).stream()
                        .map(c -> c.replace(SPACE_MARK, " ")).toList();
                if (sort != SortMode.NOSORT && cols.size() != types.size()) {
                    throw new MalformedException(outStart + out.indexOf(line) + (colnames ? 1 : 0),
                            "row has " + cols.size() + " columns but the type string declares " + types.size());
                }
                rows.add(cols);
            }
            expected = new ExpectedOutput.Values(ResultSorter.sort(rows, sort));
        } else {
            expected = new ExpectedOutput.Values(out);
        }
        emit(new Record.Query(location(start), pending, types, sort, label, colnames, names, false, mode,
                sql, expected, new OutputSpan(sqlEnd, separator, outStart, end)));
        return end;
    }

    private int parseSimple(int start, String[] words) {
        String conn = "";
        String user = "";
        boolean multiline = false;
        if (words.length >= 2) {
            for (String option : words[1].split(",")) {
                if (option.startsWith("conn=")) {
                    conn = option.substring(5);
                } else if (option.startsWith("user=")) {
                    user = option.substring(5);
                } else if (option.equals("multiline")) {
                    multiline = true;
                } else {
                    throw new MalformedException(start, "unknown simple option '" + option
                            + "' (expected conn=NAME, user=NAME or multiline)");
                }
            }
        }
        if (!user.isEmpty() && conn.isEmpty()) {
            throw new MalformedException(start, "simple: user= requires conn=");
        }
        int j = start + 1;
        while (j < lines.size() && !lines.get(j).isBlank() && !lines.get(j).strip().equals("----")) {
            j++;
        }
        int sqlEnd = j;
        String sql = sql(start + 1, sqlEnd);
        if (sql.isBlank()) {
            throw new MalformedException(start, "simple record has no SQL");
        }
        if (j >= lines.size() || lines.get(j).isBlank()) {
            throw new MalformedException(start, "simple record needs a '----' line followed by the expected output");
        }
        int outStart = j + 1;
        List<String> expected = new ArrayList<>();
        int end;
        int next;
        if (multiline) {
            int k = outStart;
            while (k < lines.size() && !lines.get(k).equals("EOF")) {
                k++;
            }
            if (k >= lines.size()) {
                throw new MalformedException(start, "multiline simple output must end with a line 'EOF'");
            }
            expected.add(String.join("\n", lines.subList(outStart, k)));
            next = bodyEnd(k + 1);
            expected.addAll(lines.subList(k + 1, next));
            end = k;
        } else {
            end = bodyEnd(outStart);
            expected.addAll(lines.subList(outStart, end));
            next = end;
        }
        emit(new Record.Simple(location(start), pending, conn, user, multiline, sql, expected,
                new OutputSpan(sqlEnd, j, outStart, end)));
        return next;
    }

    /** CockroachDB column splitting: one column keeps the whole (trimmed) line. */
    static List<String> splitColumns(String line, int columns) {
        if (columns == 1) {
            return List.of(line.strip());
        }
        String s = line.strip();
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\\s+"));
    }

    private String sql(int from, int to) {
        List<String> sqlLines = new ArrayList<>();
        for (String l : lines.subList(from, to)) {
            if (!l.startsWith("#")) {
                sqlLines.add(l);
            }
        }
        return String.join("\n", sqlLines);
    }

    /** The index of the first blank line at or after {@code from}, or the line count. */
    private int bodyEnd(int from) {
        int j = from;
        while (j < lines.size() && !lines.get(j).isBlank()) {
            j++;
        }
        return j;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private Location location(int index) {
        return new Location(file, index + 1);
    }

    private void emit(Record r) {
        records.add(r);
        pending = new ArrayList<>();
    }

    /** Internal signal: the record starting at {@code line} is malformed. */
    private static final class MalformedException extends RuntimeException {
        final int line;

        MalformedException(int line, String message) {
            super(message, null, false, false);
            this.line = line;
        }
    }
}
