package io.stillwater.bench.history;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The run-to-run spread of one stat of one action, measured by an A/A run (the same side run
 * {@code runs} times in total). Both forms are kept because thresholds come in both forms:
 * {@code relativeSpread} = max / min - 1 over the runs' values (NaN when min &lt;= 0), compared
 * with a ratio threshold's factor - 1; {@code absoluteSpread} = max - min, compared with an
 * absolute threshold's delta. {@code scenarioVersion} is the version measured: a calibration of
 * another version describes another workload. The range of single runs overstates the noise of a median of
 * several runs, so a flag raised from it errs on the side of warning.
 */
public record Calibration(String scenario, String scenarioVersion, String action, Stat stat, double relativeSpread,
        double absoluteSpread, int runs) {

    /**
     * True when the threshold would fire on noise alone: its margin is less than twice the
     * measured spread. Ungated stats and unmeasured spreads are never flagged.
     */
    public boolean tighterThanNoise(Threshold threshold) {
        return switch (threshold) {
            case Threshold.Ratio r -> !Double.isNaN(relativeSpread) && r.factor() - 1 < 2 * relativeSpread;
            case Threshold.AbsoluteIncrease a -> !Double.isNaN(absoluteSpread) && a.delta() < 2 * absoluteSpread;
            case Threshold.Ungated u -> false;
        };
    }

    /**
     * The spreads of every stat of every action over the completed runs of both sides of an A/A
     * comparison. A stat needs values from at least two runs to have a spread.
     */
    public static List<Calibration> from(ScenarioComparison aa) {
        List<ScenarioResult> completed = Stream.concat(aa.thisRuns().stream(), aa.otherRuns().stream())
                .filter(r -> r.status() == ScenarioResult.Status.COMPLETED).toList();
        String version = completed.stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse("");
        Set<String> actions = new LinkedHashSet<>();
        completed.forEach(r -> actions.addAll(r.actions().keySet()));
        List<Calibration> out = new ArrayList<>();
        for (String action : actions) {
            for (Stat stat : Stat.values()) {
                double[] values = completed.stream().map(r -> r.actions().get(action)).filter(s -> s != null)
                        .mapToDouble((ActionStatistics s) -> s.value(stat)).filter(v -> !Double.isNaN(v)).toArray();
                if (values.length < 2) {
                    continue;
                }
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (double v : values) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                double relative = min > 0 ? max / min - 1 : (max == min ? 0 : Double.NaN);
                out.add(new Calibration(aa.scenario(), version, action, stat, relative, max - min, values.length));
            }
        }
        return out;
    }
}
