package io.stillwater.slt;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The result of a run: every file's result and the totals. */
public record RunSummary(List<FileResult> files, Duration elapsed, boolean unsupportedIsFailure) {
    public RunSummary {
        files = List.copyOf(files);
    }

    public Map<Outcome, Integer> totals() {
        EnumMap<Outcome, Integer> t = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            t.put(o, files.stream().mapToInt(f -> f.count(o)).sum());
        }
        return t;
    }

    public int total(Outcome o) {
        return totals().get(o);
    }

    public int failedFiles() {
        return (int) files.stream().filter(f -> f.failed(unsupportedIsFailure)).count();
    }

    /** True when no file failed (unsupported records fail only with --unsupported-is-failure). */
    public boolean passed() {
        return failedFiles() == 0;
    }

    /** 0 when passed, 1 otherwise. */
    public int exitCode() {
        return passed() ? 0 : 1;
    }

    public String countsLine() {
        return FileResult.formatCounts(totals());
    }
}
