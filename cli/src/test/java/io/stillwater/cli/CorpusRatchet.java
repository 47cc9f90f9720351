package io.stillwater.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The committed per-file outcome counts of the SQLite corpus on the embedded engine
 * ({@code test/slt/corpus-ratchet.tsv}): a tab-separated file with a header line and the
 * columns file, success, failures, unsupported, skipped. A run may only move forward: no file
 * may lose successes or gain failures. Files are keyed by their path relative to the corpus
 * directory, with {@code /} separators.
 */
final class CorpusRatchet {
    static final String HEADER = "file\tsuccess\tfailures\tunsupported\tskipped";

    /** One file's outcome counts; {@code failures} excludes unsupported and skipped records. */
    record Counts(int success, int failures, int unsupported, int skipped) {}

    private CorpusRatchet() {}

    static Map<String, Counts> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the corpus ratchet " + file, e);
        }
        return parse(lines, file.toString());
    }

    static Map<String, Counts> parse(List<String> lines, String source) {
        Map<String, Counts> out = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.equals(HEADER)) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 5) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": expected 5 tab-separated columns ("
                        + HEADER.replace('\t', ',') + "), got: " + line);
            }
            try {
                out.put(f[0], new Counts(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                        Integer.parseInt(f[4])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": counts must be integers: " + line, e);
            }
        }
        return out;
    }

    static String format(Map<String, Counts> counts) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        new TreeMap<>(counts).forEach((file, c) -> sb.append(file).append('\t').append(c.success()).append('\t')
                .append(c.failures()).append('\t').append(c.unsupported()).append('\t').append(c.skipped()).append('\n'));
        return sb.toString();
    }

    /**
     * Why {@code current} is worse than {@code ratchet}: a file whose success count dropped or
     * whose failure count rose, a ratcheted file that did not run, or a file that ran but has
     * no ratchet line. Empty when the run may be accepted.
     */
    static List<String> regressions(Map<String, Counts> ratchet, Map<String, Counts> current) {
        List<String> out = new ArrayList<>();
        new TreeMap<>(ratchet).forEach((file, was) -> {
            Counts now = current.get(file);
            if (now == null) {
                out.add(file + ": in the ratchet but was not run");
                return;
            }
            if (now.success() < was.success()) {
                out.add(file + ": success dropped from " + was.success() + " to " + now.success());
            }
            if (now.failures() > was.failures()) {
                out.add(file + ": failures rose from " + was.failures() + " to " + now.failures());
            }
        });
        current.keySet().stream().filter(f -> !ratchet.containsKey(f)).sorted()
                .forEach(f -> out.add(f + ": ran but has no line in the ratchet"));
        return out;
    }

    /** Files whose counts differ from the ratchet without regressing (candidates for an update). */
    static List<String> improvements(Map<String, Counts> ratchet, Map<String, Counts> current) {
        List<String> out = new ArrayList<>();
        new TreeMap<>(current).forEach((file, now) -> {
            Counts was = ratchet.get(file);
            if (was != null && !was.equals(now)) {
                out.add(file + ": " + was + " -> " + now);
            }
        });
        return out;
    }
}
