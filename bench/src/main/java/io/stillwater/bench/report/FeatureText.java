package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.SideInfo;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** What the feature-bench report formats say alike (summary, sides, parameters, notes): one place, so they agree. */
final class FeatureText {
    private FeatureText() {
    }

    /** A median with its sample count, e.g. {@code 12.3 (n=36)}; "-" when the side has none. */
    static String median(double median, int samples) {
        return Double.isNaN(median) ? "-" : Format.millis(median) + " (n=" + samples + ")";
    }

    /** The threshold as a percentage, e.g. "10%". */
    static String threshold(double t) {
        String s = String.format(Locale.ROOT, "%.1f", t * 100);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + "%";
    }

    /** The marker beside a threshold tighter than its calibrated noise, and the legend line explaining it. */
    static final String NOISY = "!";
    static final String NOISY_LEGEND = "! threshold tighter than twice the calibrated run-to-run spread of the median: "
            + "it can fire on noise (widen it, or make the scenario steadier)";
    /** The legend under a calibration run's table. */
    static final String CALIBRATING_LEGEND = "SPREAD: run-to-run spread of the median over every run of both sides "
            + "(max/min - 1 of the per-run medians), measured by this A/A run and recorded in the history; later runs "
            + "show it beside each threshold";

    /** The calibrated relative spread, e.g. "+-3.2%"; "?" when not computable, "" when not calibrated. */
    static String spread(Optional<Calibration> c) {
        if (c.isEmpty()) {
            return "";
        }
        double r = c.get().relativeSpread();
        return Double.isNaN(r) ? "?" : "+-" + threshold(r);
    }

    static String outcome(FeatureOutcome o) {
        return switch (o) {
            case REGRESSION -> "REGRESSION";
            case IMPROVEMENT -> "improvement";
            case WITHIN -> "ok";
            case NOT_COMPARED -> "not compared";
        };
    }

    /** {@code dev (embedded; enable_compute_interactive_runtime=false)}. */
    static String side(SideInfo s) {
        return s.build() + " (" + s.target() + (s.params().isEmpty() ? "" : "; " + s.paramsText()) + ")";
    }

    /** "4 scenarios: 1 passed, 1 regressed, 1 failed, 1 skipped". */
    static String summary(FeatureReport report) {
        List<String> parts = new ArrayList<>();
        for (ScenarioStatus s : ScenarioStatus.values()) {
            long n = count(report, s);
            if (n > 0) {
                parts.add(n + " " + s.name().toLowerCase(Locale.ROOT));
            }
        }
        int total = report.scenarios().size();
        String counts = total + (total == 1 ? " scenario" : " scenarios")
                + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
        if (report.calibrating()) {
            return "A/A calibration, " + counts + "; " + report.calibrations().size() + " spreads measured"
                    + (report.runId() < 0 ? " (NOT recorded)" : " and recorded")
                    + (report.failed() ? "; the run FAILS (a scenario failed)" : "");
        }
        return counts + (report.failed() ? "; the run FAILS (a scenario regressed or failed)" : "; the run passes");
    }

    static long count(FeatureReport report, ScenarioStatus status) {
        return report.scenarios().stream().filter(s -> s.status() == status).count();
    }

    /**
     * The effective value of each parameter either side read back, one line per parameter:
     * {@code enable_compute_interactive_runtime: this=on other=off}, in the order this side read them.
     */
    static List<String> params(FeatureScenarioResult r) {
        Set<String> names = new LinkedHashSet<>(r.thisParams().keySet());
        names.addAll(r.otherParams().keySet());
        List<String> out = new ArrayList<>();
        for (String name : names) {
            String t = r.thisParams().getOrDefault(name, "(not read)");
            String o = r.otherParams().getOrDefault(name, "(not read)");
            out.add(name + ": this=" + t + " other=" + o + (t.equals(o) ? "" : "  (differs)"));
        }
        return out;
    }

    /** Why a scenario has fewer or less certain results than asked: re-runs, the maximum reached, skipped or failed sides. */
    static List<String> notes(FeatureScenarioResult r, int maxMeasurements) {
        return notes(r, maxMeasurements, false);
    }

    /** As {@link #notes(FeatureScenarioResult, int)}; a calibration run runs every scenario fully, regressed or not. */
    static List<String> notes(FeatureScenarioResult r, int maxMeasurements, boolean calibrating) {
        List<String> out = new ArrayList<>();
        int runs = r.runsPerSide();
        if (calibrating) {
            out.add(runs + (runs == 1 ? " run" : " runs") + " per side, both sides the same configuration (A/A)");
        } else if (runs > 1) {
            out.add(runs + " runs per side: the first run regressed, so it was run again and judged on all runs pooled");
        }
        List<String> atMax = r.runs().stream().filter(o -> o instanceof SideOutcome.Measured m
                && m.run().stop() == StopReason.MAX_MEASUREMENTS).map(o -> o.side() + " run " + o.runNumber()).toList();
        if (!atMax.isEmpty()) {
            boolean all = atMax.size() == r.runs().size() && atMax.size() > 1;
            out.add((all ? "every side run" : String.join(", ", atMax)) + " stopped at --max-measurements "
                    + maxMeasurements + " before the median's confidence interval was narrow enough");
        }
        for (SideOutcome o : r.runs()) {
            switch (o) {
                case SideOutcome.Skipped s -> out.add(s.side() + " run " + s.runNumber() + " skipped: " + s.reason());
                case SideOutcome.Failed f -> out.add(f.side() + " run " + f.runNumber() + " failed: " + f.error());
                default -> {
                }
            }
        }
        return out;
    }
}
