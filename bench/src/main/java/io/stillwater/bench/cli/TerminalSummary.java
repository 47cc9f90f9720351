package io.stillwater.bench.cli;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.Stat;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The built-in plain-text summary: per scenario its verdict, the main stats of each action (this,
 * other, change, threshold, outcome), every regression, failure, skip, missed guarantee and
 * message. The full tables and charts are the reporters' job ({@link BenchReporter}).
 */
public final class TerminalSummary implements BenchReporter {
    /** Shown for every action; any other stat is shown only when it regressed. */
    private static final Set<Stat> SHOWN = EnumSet.of(Stat.QUERIES, Stat.ERRORS, Stat.QPS, Stat.AVG, Stat.P50,
            Stat.P95, Stat.P99);

    private final PrintWriter out;

    public TerminalSummary(PrintWriter out) {
        this.out = out;
    }

    @Override
    public String name() {
        return "terminal";
    }

    @Override
    public void report(BenchRun run) {
        out.println();
        out.println("stillwater bench: " + describe(run));
        for (ScenarioComparison c : run.comparisons()) {
            scenario(run, c);
        }
        if (!run.calibrations().isEmpty()) {
            out.println();
            out.println("Run-to-run spread (A/A, max/min over completed runs) of gated stats:");
            out.printf(Locale.ROOT, "  %-24s %-52s %-10s %10s %10s%n", "SCENARIO", "ACTION", "STAT", "SPREAD", "THRESHOLD");
            // SPREAD is max/min - 1 as a percentage, comparable with the threshold column
            for (Calibration cal : run.calibrations()) {
                if (cal.threshold() instanceof io.stillwater.bench.gate.Threshold.Ratio) {
                    out.printf(Locale.ROOT, "  %-24s %-52s %-10s %10s %10s%s%n", cal.scenario(), clip(cal.action(), 52),
                            cal.stat().key(), pct(cal.spread() - 1), cal.threshold(),
                            cal.tighterThanNoise() ? "  !! tighter than twice the spread" : "");
                }
            }
        }
        long failed = run.comparisons().stream().filter(c -> !run.passed(c)).count();
        out.println();
        out.println(run.passed() ? "PASSED: " + run.comparisons().size() + " scenario(s)"
                : "NOT PASSED: " + failed + " of " + run.comparisons().size()
                        + " scenario(s) regressed, failed or missed a guarantee");
        out.flush();
    }

    private static String describe(BenchRun run) {
        String base = switch (run.mode()) {
            case COMPARE -> "this = " + run.thisSide() + ", other = " + run.other();
            case CALIBRATE -> "calibration (A/A) of " + run.thisSide();
            case HISTORY -> "this = " + run.thisSide() + ", other = stored results of build " + run.historyBuild();
        };
        return base + "; " + run.runsPerSide() + " run(s) per side, verdict by the median"
                + (run.loadPhaseDuration() == null ? "" : "; load phases " + run.loadPhaseDuration().toSeconds() + " s")
                + (run.shard().count() > 1 ? "; shard " + run.shard() : "");
    }

    private void scenario(BenchRun run, ScenarioComparison c) {
        String version = c.thisRuns().isEmpty() ? "" : c.thisRuns().getFirst().version();
        out.println();
        out.println("== " + c.scenario() + (version.isEmpty() ? "" : " " + version) + ": " + verdict(run, c));
        skipReason(c.thisRuns(), "this");
        skipReason(c.otherRuns(), "other");
        for (String p : c.problems()) {
            if (!p.contains(" SKIPPED: ")) {
                out.println("   problem: " + p);
            }
        }
        List<StatVerdict> rows = c.verdicts().stream()
                .filter(v -> SHOWN.contains(v.stat()) || v.outcome() == Outcome.REGRESSION).toList();
        if (!rows.isEmpty()) {
            out.printf(Locale.ROOT, "   %-52s %-10s %12s %12s %9s %10s  %s%n", "ACTION", "STAT", "THIS", "OTHER", "CHANGE",
                    "THRESHOLD", "VERDICT");
            for (StatVerdict v : rows) {
                out.printf(Locale.ROOT, "   %-52s %-10s %12s %12s %9s %10s  %s%n", clip(v.action(), 52), v.stat().key(),
                        fmt(v.thisValue()), fmt(v.otherValue()), pct(v.change()), v.threshold(),
                        v.outcome() == Outcome.REGRESSION ? "!! REGRESSION" : v.outcome());
            }
        }
        c.thisRuns().stream().flatMap(r -> r.violations().stream()).distinct()
                .forEach(v -> out.println("   guarantee missed (this): " + v));
        c.thisRuns().stream().flatMap(r -> r.messages().stream()).distinct()
                .forEach(m -> out.println("   note (this): " + m));
        c.otherRuns().stream().flatMap(r -> r.messages().stream()).distinct()
                .forEach(m -> out.println("   note (other): " + m));
        c.thisRuns().stream().flatMap(r -> r.warnings().stream()).distinct()
                .forEach(w -> out.println("   warning: " + w));
        c.thisRuns().stream().flatMap(r -> r.actions().entrySet().stream())
                .flatMap(e -> e.getValue().errorCounts().entrySet().stream()
                        .map(err -> e.getKey() + ": " + err.getValue() + " x " + err.getKey()))
                .distinct().limit(10).forEach(e -> out.println("   errors (this): " + e));
    }

    private void skipReason(List<ScenarioResult> runs, String side) {
        runs.stream().filter(r -> r.status() == ScenarioResult.Status.SKIPPED).map(ScenarioResult::failure).distinct()
                .forEach(reason -> out.println("   skipped on " + side + ": " + reason));
    }

    private static String verdict(BenchRun run, ScenarioComparison c) {
        boolean allSkipped = c.thisRuns().stream().allMatch(r -> r.status() == ScenarioResult.Status.SKIPPED);
        if (allSkipped && !c.thisRuns().isEmpty()) {
            return "SKIPPED";
        }
        if (c.thisRuns().stream().anyMatch(r -> r.status() == ScenarioResult.Status.FAILED)
                || c.otherRuns().stream().anyMatch(r -> r.status() == ScenarioResult.Status.FAILED)) {
            return "FAILED";
        }
        if (run.mode() != BenchRun.Mode.CALIBRATE && c.regressed()) {
            return "REGRESSED";
        }
        return run.passed(c) ? "OK" : "NOT PASSED";
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return Math.abs(v) >= 1000 || v == Math.rint(v) && Math.abs(v) < 1e9 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String pct(double change) {
        return Double.isNaN(change) ? "-" : String.format(Locale.ROOT, "%+.1f%%", change * 100);
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}
