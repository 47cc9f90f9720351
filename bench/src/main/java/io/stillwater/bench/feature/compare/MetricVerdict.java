package io.stillwater.bench.feature.compare;

import io.stillwater.bench.feature.scenario.Metric;

/**
 * One metric of one scenario, judged on the kept samples of all runs of each side together.
 *
 * @param thisMedian median of this side's kept samples pooled over its runs (NaN when none)
 * @param otherMedian likewise for other
 * @param thisSamples how many samples the median is of
 * @param otherSamples likewise for other
 * @param threshold the relative threshold applied
 * @param text what 'this' is, for people: "12% slower", "3.1 times faster", "4% more memory",
 *     "within 10%", "not measured on other"
 */
public record MetricVerdict(Metric metric, double thisMedian, double otherMedian, int thisSamples,
        int otherSamples, double threshold, FeatureOutcome outcome, String text) {

    /** this / other; NaN when either is missing. */
    public double ratio() {
        return thisMedian / otherMedian;
    }
}
