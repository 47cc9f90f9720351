package io.stillwater.bench.feature.compare;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.List;

/**
 * Compares this with other on the median. A metric regresses when {@code this/other - 1 >
 * threshold} and improves when {@code other/this - 1 > threshold}. The median is taken over the
 * kept samples of all runs of a side together: never the best run (best-of-N hides regressions),
 * never "every run regressed" (all-of-N hides them too).
 */
public final class FeatureComparison {
    private FeatureComparison() {
    }

    /**
     * @param thisKept this side's kept samples, all runs together (empty: not measured)
     * @param otherKept other's, likewise
     */
    public static MetricVerdict compare(Metric metric, List<Double> thisKept, List<Double> otherKept,
            double threshold) {
        // TEMP core stub
        double t = io.stillwater.bench.feature.measure.MedianInterval.median(thisKept);
        double o = io.stillwater.bench.feature.measure.MedianInterval.median(otherKept);
        FeatureOutcome out = thisKept.isEmpty() || otherKept.isEmpty() ? FeatureOutcome.NOT_COMPARED
                : t / o - 1 > threshold ? FeatureOutcome.REGRESSION
                : o / t - 1 > threshold ? FeatureOutcome.IMPROVEMENT : FeatureOutcome.WITHIN;
        return new MetricVerdict(metric, t, o, thisKept.size(), otherKept.size(), threshold, out, out + " " + (t / o));
    }

    /**
     * What this is compared with other, in words: below 2x "N% slower"/"N% faster" (memory: "N% more
     * memory"/"N% less memory"), from 2x "N.N times slower"/"N.N times faster" (memory: "N.N times
     * the memory"/"N.N times less memory"), "the same" when equal.
     */
    public static String describe(Metric metric, double ratio) {
        throw new UnsupportedOperationException("TODO");
    }
}
