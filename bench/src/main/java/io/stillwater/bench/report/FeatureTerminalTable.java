package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.history.RunInfo;
import java.util.List;

/**
 * The plain-text verdict table printed at the end of a feature run: one row per scenario and metric
 * (NAME | METRIC | THIS | OTHER | UNIT | THRESHOLD | VERDICT | 'THIS' IS), the medians of all runs of
 * a side pooled with their sample counts; under each scenario the effective value of every
 * parameter it depends on, per side, and notes (re-runs, the maximum reached). A skipped or failed
 * scenario is one row with its reason. When any row has a calibrated run-to-run spread (from the
 * history, or measured by this run when it is a {@code --calibrate} run) a SPREAD column follows
 * THRESHOLD; a threshold tighter than twice its spread is marked {@code !} there and explained by a
 * legend line under the table.
 */
public final class FeatureTerminalTable {
    private FeatureTerminalTable() {
    }

    public static String render(FeatureReport report) {
        RunInfo run = report.info();
        StringBuilder out = new StringBuilder();
        int count = report.scenarios().size();
        out.append("stillwater feature-bench").append(report.calibrating() ? " --calibrate (A/A)" : "").append(": ")
                .append(count).append(count == 1 ? " scenario" : " scenarios")
                .append(report.calibrating() ? ", " : ", up to ").append(run.runsPerSide())
                .append(run.runsPerSide() == 1 ? " run" : " runs")
                .append(report.calibrating() ? " per side for every scenario" : " per scenario").append(", at most ").append(report.maxMeasurements())
                .append(" measurements per side run")
                .append(report.scaleOption().isEmpty() ? "" : ", --scale " + report.scaleOption())
                .append(report.calibrating() ? "; spreads of the per-run medians\n"
                        : "; verdicts on the median of all runs pooled\n");
        out.append("  this:  ").append(FeatureText.side(run.thisSide())).append('\n');
        out.append("  other: ").append(FeatureText.side(run.otherSide())).append('\n');
        out.append('\n');
        int nameWidth = Math.max(4, Math.min(40, report.scenarios().stream().mapToInt(s -> s.scenario().length())
                .max().orElse(4)));
        boolean spreads = report.calibrating() || report.scenarios().stream()
                .anyMatch(r -> r.verdicts().stream().anyMatch(v -> report.calibration(r, v).isPresent()));
        String row = "%-" + nameWidth + "s  %-11s  %14s  %14s  %-4s  %9s" + (spreads ? "  %-9s" : "%s")
                + "  %-12s  %s";
        out.append(String.format(row, "NAME", "METRIC", "THIS", "OTHER", "UNIT", "THRESHOLD", spreads ? "SPREAD" : "",
                "VERDICT", "'THIS' IS").stripTrailing()).append('\n');
        for (FeatureScenarioResult r : report.scenarios()) {
            String name = r.scenario();
            if (r.status() == ScenarioStatus.SKIPPED || r.status() == ScenarioStatus.FAILED) {
                out.append(String.format("%-" + nameWidth + "s  %s: %s", name, r.status(), r.reason()).stripTrailing())
                        .append('\n');
            }
            List<MetricVerdict> verdicts = r.verdicts();
            for (int i = 0; i < verdicts.size(); i++) {
                MetricVerdict v = verdicts.get(i);
                boolean first = i == 0 && r.status() != ScenarioStatus.SKIPPED && r.status() != ScenarioStatus.FAILED;
                out.append(String.format(row, first ? name : "", v.metric().label(),
                        FeatureText.median(v.thisMedian(), v.thisSamples()),
                        FeatureText.median(v.otherMedian(), v.otherSamples()), v.metric().unit(),
                        FeatureText.threshold(v.threshold()), spreads ? spread(report, r, v) : "",
                        FeatureText.outcome(v.outcome()), v.text())
                        .stripTrailing()).append('\n');
            }
            for (String p : FeatureText.params(r)) {
                out.append("  ").append(p).append('\n');
            }
            for (String n : FeatureText.notes(r, report.maxMeasurements(), report.calibrating())) {
                boolean inRow = (r.status() == ScenarioStatus.SKIPPED || r.status() == ScenarioStatus.FAILED)
                        && n.contains(": ") && r.reason().contains(n.substring(n.indexOf(": ") + 2));
                if (inRow) {
                    continue; // the skip or failure is the scenario's reason, already in its row
                }
                out.append("  note: ").append(n).append('\n');
            }
        }
        out.append('\n');
        if (report.calibrating()) {
            out.append(FeatureText.CALIBRATING_LEGEND).append('\n');
        }
        if (report.anyTighterThanNoise()) {
            out.append(FeatureText.NOISY_LEGEND).append('\n');
        }
        out.append(FeatureText.summary(report)).append('\n');
        return out.toString();
    }

    /** The SPREAD cell: the calibrated spread, "!" after it when the threshold is tighter than twice it, "-" when none. */
    private static String spread(FeatureReport report, FeatureScenarioResult r, MetricVerdict v) {
        String s = FeatureText.spread(report.calibration(r, v));
        return s.isEmpty() ? "-" : s + (report.tighterThanNoise(r, v) ? " " + FeatureText.NOISY : "");
    }
}
