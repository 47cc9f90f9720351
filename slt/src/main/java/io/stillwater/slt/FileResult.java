package io.stillwater.slt;

import java.util.Collections;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome counts of one script file, its non-successful records in file order, and why
 * the file stopped early if it did ({@code halted} at a {@code halt} record; {@code fatal}
 * when the file could not be read or the target could not be reached).
 */
public record FileResult(
        String file, Map<Outcome, Integer> counts, List<Failure> problems, Duration elapsed, String halted, String fatal) {
    public FileResult {
        EnumMap<Outcome, Integer> copy = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            copy.put(o, counts.getOrDefault(o, 0));
        }
        counts = Collections.unmodifiableMap(copy);
        problems = List.copyOf(problems);
        halted = halted == null ? "" : halted;
        fatal = fatal == null ? "" : fatal;
    }

    public int count(Outcome o) {
        return counts.get(o);
    }

    public int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int failures(boolean unsupportedIsFailure) {
        int n = 0;
        for (Map.Entry<Outcome, Integer> e : counts.entrySet()) {
            if (e.getKey().isFailure(unsupportedIsFailure)) {
                n += e.getValue();
            }
        }
        return n;
    }

    public boolean failed(boolean unsupportedIsFailure) {
        return !fatal.isEmpty() || failures(unsupportedIsFailure) > 0;
    }

    /** {@code success=10 wrong-values=1 unsupported=2 total=13}: only non-zero counts. */
    public String countsLine() {
        return formatCounts(counts);
    }

    static String formatCounts(Map<Outcome, Integer> counts) {
        StringBuilder sb = new StringBuilder();
        int total = 0;
        for (Outcome o : Outcome.values()) {
            int n = counts.getOrDefault(o, 0);
            total += n;
            if (n > 0) {
                sb.append(o.label()).append('=').append(n).append(' ');
            }
        }
        return sb.append("total=").append(total).toString();
    }
}
