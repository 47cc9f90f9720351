package io.stillwater.bench.report;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.SideInfo;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The plain-text verdict table printed at the end of a run. Per scenario: a header with its
 * verdict and reason, then per action its name on a line of its own (names are SQL and long) and
 * one row per stat: THIS, OTHER, CHANGE, RATIO, THRESHOLD, SPREAD (calibrated), VERDICT. A row
 * whose threshold is tighter than twice its calibrated spread is marked {@code !}. The rows are
 * 100 characters wide; action lines are cut to the given width, reasons and notes wrapped.
 */
public final class TerminalTable {
    /** The width the table is laid out for. */
    public static final int DEFAULT_WIDTH = 120;

    private static final String ROW = "    %-10s %12s %12s %9s %7s %9s %9s  %-12s";

    private TerminalTable() {
    }

    /** Which stat rows to print. */
    public enum Detail {
        /** Every stat of every action. */
        ALL,
        /** Only gated stats (OK, REGRESSION, NO_DATA rows); the HTML and JSON reports have the rest. */
        GATED
    }

    public static String render(BenchReport report) {
        return render(report, DEFAULT_WIDTH, Detail.ALL);
    }

    public static String render(BenchReport report, int width) {
        return render(report, width, Detail.ALL);
    }

    public static String render(BenchReport report, int width, Detail detail) {
        StringBuilder out = new StringBuilder();
        var run = report.run();
        line(out, width, "stillwater bench, " + run.mode().name().toLowerCase(Locale.ROOT) + ", " + run.runsPerSide()
                + (run.runsPerSide() == 1 ? " run" : " runs") + " per side, interleaved; verdicts on the median");
        line(out, width, "  this:  " + side(run.thisSide()));
        line(out, width, "  other: " + side(run.otherSide()));
        boolean anyNoisy = false;
        for (ScenarioComparison c : report.scenarios()) {
            ScenarioOutcome o = report.outcome(c);
            out.append('\n');
            String version = c.thisRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                    .orElse("");
            line(out, width, "== " + c.scenario() + (version.isEmpty() ? "" : " " + version) + "  " + o.verdict());
            if (!o.reason().isEmpty()) {
                wrapped(out, width, "   ", o.reason());
            }
            for (String note : notes(c)) {
                wrapped(out, width, "   note: ", note);
            }
            List<StatVerdict> rows = c.verdicts().stream()
                    .filter(v -> detail == Detail.ALL || v.outcome() != Outcome.UNGATED).toList();
            if (rows.isEmpty()) {
                continue;
            }
            out.append(String.format(Locale.ROOT, ROW, "STAT", "THIS", "OTHER", "CHANGE", "RATIO", "THRESHOLD", "SPREAD",
                    "VERDICT").stripTrailing()).append('\n');
            String action = null;
            for (StatVerdict v : rows) {
                if (!v.action().equals(action)) {
                    action = v.action();
                    line(out, width, "  " + action);
                }
                boolean noisy = report.tighterThanNoise(c, v);
                anyNoisy |= noisy;
                String unit = Format.unit(v.stat());
                out.append(String.format(Locale.ROOT, ROW, v.stat().key() + (unit.isEmpty() ? "" : " " + unit),
                        Format.value(v.stat(), v.thisValue()), Format.value(v.stat(), v.otherValue()),
                        Format.change(v), Format.ratio(v), Format.threshold(v.threshold()),
                        Format.spread(report.calibration(c, v), v.threshold()),
                        Format.outcome(v.outcome()) + (noisy ? " !" : "")).stripTrailing()).append('\n');
            }
        }
        out.append('\n');
        if (anyNoisy) {
            line(out, width, "! threshold tighter than twice the calibrated run-to-run spread: it can fire on noise");
        }
        line(out, width, report.summary().line());
        return out.toString();
    }

    /** Messages, warnings and guarantee violations of the scenario's runs, each once. */
    static List<String> notes(ScenarioComparison c) {
        Set<String> notes = new LinkedHashSet<>();
        Stream.concat(c.thisRuns().stream(), c.otherRuns().stream()).forEach(r -> {
            notes.addAll(r.warnings());
            notes.addAll(r.messages());
        });
        c.thisRuns().forEach(r -> r.violations().forEach(v -> notes.add("this side missed a guarantee: " + v)));
        return List.copyOf(notes);
    }

    private static String side(SideInfo s) {
        return s.build() + " (" + s.target() + (s.params().isEmpty() ? "" : "; " + s.paramsText()) + ")";
    }

    /** Reasons and notes are wrapped, never cut: they are what a person acts on. */
    static void wrapped(StringBuilder out, int width, String prefix, String text) {
        String indent = " ".repeat(prefix.length());
        String rest = text.replace('\r', ' ').replace('\n', ' ');
        String lead = prefix;
        int room = Math.max(20, width - prefix.length());
        while (rest.length() > room) {
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= room / 2) {
                cut = room;
            }
            out.append(lead).append(rest, 0, cut).append('\n');
            rest = rest.substring(cut).stripLeading();
            lead = indent;
        }
        out.append(lead).append(rest).append('\n');
    }

    private static void line(StringBuilder out, int width, String text) {
        String oneLine = text.replace('\n', ' ').replace('\r', ' ');
        out.append(oneLine.length() > width ? oneLine.substring(0, width - 3) + "..." : oneLine).append('\n');
    }
}
