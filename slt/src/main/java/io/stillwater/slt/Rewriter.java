package io.stillwater.slt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects new expected output for records of one script and writes the script back with
 * only those spans replaced ({@code --rewrite-results}). Everything else of the file is kept
 * byte for byte, except that line endings become {@code \n}.
 */
final class Rewriter {
    private record Edit(OutputSpan span, List<String> lines) {}

    private final Script script;
    private final List<Edit> edits = new ArrayList<>();

    Rewriter(Script script) {
        this.script = script;
    }

    boolean isEmpty() {
        return edits.isEmpty();
    }

    /** Replaces a query's expected output with what the target returned. */
    void query(Record.Query q, List<String> columnNames, List<List<String>> rows, List<String> sortedValues,
            int hashThreshold) {
        List<String> out = new ArrayList<>();
        if (q.checkColumnNames()) {
            out.add(String.join(" ", columnNames.stream().map(n -> n.replace(" ", SltParser.SPACE_MARK)).toList()));
        }
        if (q.multiline()) {
            out.addAll(List.of(String.join("\n", sortedValues).split("\n", -1)));
        } else if (q.expected() instanceof ExpectedOutput.Hashed
                || (hashThreshold > 0 && sortedValues.size() > hashThreshold)) {
            out.add(sortedValues.size() + " values hashing to " + ResultHasher.md5(sortedValues));
        } else if (q.mode() == Mode.COCKROACH) {
            List<List<String>> ordered = new ArrayList<>(rows);
            if (q.sort() == SortMode.ROWSORT) {
                ordered.sort((a, b) -> ResultSorter.compareCodePoints(String.join("\0", a), String.join("\0", b)));
            }
            for (List<String> row : ordered) {
                out.add(String.join("  ", row.stream().map(v -> v.replace(" ", SltParser.SPACE_MARK)).toList()));
            }
        } else {
            out.addAll(sortedValues);
        }
        edits.add(new Edit(q.span(), out));
    }

    /** Replaces a simple block's expected output. */
    void simple(Record.Simple s, List<String> actual) {
        List<String> out = new ArrayList<>();
        for (String line : actual) {
            out.addAll(List.of(line.split("\n", -1)));
        }
        edits.add(new Edit(s.span(), out));
    }

    /** Applies the edits and writes the file. */
    void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>(script.lines());
        List<Edit> ordered = new ArrayList<>(edits);
        ordered.sort(Comparator.comparingInt((Edit e) -> e.span().start()).reversed());
        for (Edit e : ordered) {
            OutputSpan span = e.span();
            if (span.separator() < 0) {
                if (e.lines().isEmpty()) {
                    continue;
                }
                List<String> insert = new ArrayList<>();
                insert.add("----");
                insert.addAll(e.lines());
                lines.addAll(span.sqlEnd(), insert);
            } else {
                List<String> region = lines.subList(span.start(), span.end());
                region.clear();
                region.addAll(e.lines());
            }
        }
        String text = String.join("\n", lines) + (script.endsWithNewline() ? "\n" : "");
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
