package io.stillwater.bench.gate;

import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Direction;
import io.stillwater.bench.stats.Stat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Regression verdicts. A side's value of a stat is the MEDIAN over its runs (never best-of-N, which
 * biases toward missing real regressions); each side's median is then compared with the stat's
 * threshold in the stat's direction.
 */
public final class Verdicts {
    private Verdicts() {
    }

    /** The verdict on one stat given both sides' (median) values. */
    public static StatVerdict compare(String action, Stat stat, double thisValue, double otherValue,
            Threshold threshold) {
        Outcome outcome;
        if (threshold instanceof Threshold.Ungated) {
            outcome = Outcome.UNGATED;
        } else if (Double.isNaN(thisValue) || Double.isNaN(otherValue)) {
            outcome = Outcome.NO_DATA;
        } else {
            outcome = regressed(stat.direction(), thisValue, otherValue, threshold) ? Outcome.REGRESSION : Outcome.OK;
        }
        return new StatVerdict(action, stat, thisValue, otherValue, threshold, outcome);
    }

    private static boolean regressed(Direction direction, double t, double o, Threshold threshold) {
        return switch (threshold) {
            case Threshold.Ratio r -> direction == Direction.LOWER_IS_WORSE ? t < o / r.factor() : t > o * r.factor();
            case Threshold.AbsoluteIncrease a -> direction == Direction.LOWER_IS_WORSE
                    ? o - t > a.delta() : t - o > a.delta();
            case Threshold.Ungated u -> false;
        };
    }

    /**
     * Compares every stat of every action seen on either side. Each element of {@code thisRuns}
     * and {@code otherRuns} is one run's statistics by action name; an action absent from some
     * runs is compared over the runs that have it, and an action absent from a whole side gives
     * {@link Outcome#NO_DATA} rows (never an exception).
     *
     * @param thresholds resolves an action name to its thresholds (e.g.
     *     {@code ScenarioDefinition::thresholdsFor})
     */
    public static List<StatVerdict> compare(List<Map<String, ActionStatistics>> thisRuns,
            List<Map<String, ActionStatistics>> otherRuns, Function<String, Thresholds> thresholds) {
        Set<String> actions = new LinkedHashSet<>();
        thisRuns.forEach(r -> actions.addAll(r.keySet()));
        otherRuns.forEach(r -> actions.addAll(r.keySet()));
        List<StatVerdict> out = new ArrayList<>();
        for (String action : actions) {
            Thresholds t = thresholds.apply(action);
            for (Stat stat : Stat.values()) {
                out.add(compare(action, stat, median(thisRuns, action, stat), median(otherRuns, action, stat),
                        t.of(stat)));
            }
        }
        return out;
    }

    /** True when any row regressed. */
    public static boolean anyRegression(List<StatVerdict> verdicts) {
        return verdicts.stream().anyMatch(v -> v.outcome() == Outcome.REGRESSION);
    }

    static double median(List<Map<String, ActionStatistics>> runs, String action, Stat stat) {
        return median(runs.stream().map(r -> r.get(action)).filter(s -> s != null)
                .mapToDouble(s -> s.value(stat)).filter(v -> !Double.isNaN(v)).toArray());
    }

    /** The median; the mean of the two middle values for an even count; NaN when empty. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }
}
