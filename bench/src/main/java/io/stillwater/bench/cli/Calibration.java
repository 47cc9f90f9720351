package io.stillwater.bench.cli;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The run-to-run spread of one stat of one action, measured by an A/A run ({@code --calibrate}:
 * the same side on both "sides", so every run is a sample of the same configuration).
 *
 * @param runs completed runs the spread is over (both halves of the A/A pair)
 * @param threshold the threshold that gates this stat, to show beside the spread
 */
public record Calibration(String scenario, String version, String action, Stat stat, int runs, double min,
        double median, double max, Threshold threshold) {

    /** max / min: the worst ratio between two runs of one configuration; NaN when min is not positive. */
    public double spread() {
        return min > 0 ? max / min : Double.NaN;
    }

    /**
     * Whether the gate is tighter than twice the measured noise: a ratio threshold t with
     * {@code t - 1 < 2 * (spread - 1)} would flag run-to-run variance as a regression.
     */
    public boolean tighterThanNoise() {
        return threshold instanceof Threshold.Ratio r && !Double.isNaN(spread()) && r.factor() - 1 < 2 * (spread() - 1);
    }

    /** Spreads of every action and stat over all completed runs of an A/A comparison. */
    static List<Calibration> of(ScenarioComparison aa, ScenarioDefinition def) {
        List<ScenarioResult> runs = new ArrayList<>();
        aa.thisRuns().stream().filter(r -> r.status() == ScenarioResult.Status.COMPLETED).forEach(runs::add);
        aa.otherRuns().stream().filter(r -> r.status() == ScenarioResult.Status.COMPLETED).forEach(runs::add);
        Set<String> actions = new LinkedHashSet<>();
        runs.forEach(r -> actions.addAll(r.actions().keySet()));
        List<Calibration> out = new ArrayList<>();
        for (String action : actions) {
            for (Stat stat : Stat.values()) {
                double[] v = runs.stream().map(r -> r.actions().get(action)).filter(s -> s != null)
                        .mapToDouble((ActionStatistics s) -> s.value(stat)).filter(x -> !Double.isNaN(x)).toArray();
                if (v.length == 0) {
                    continue;
                }
                double min = java.util.Arrays.stream(v).min().orElseThrow();
                double max = java.util.Arrays.stream(v).max().orElseThrow();
                out.add(new Calibration(aa.scenario(), def.version(), action, stat, v.length, min, Verdicts.median(v),
                        max, def.thresholdsFor(action).of(stat)));
            }
        }
        return out;
    }
}
