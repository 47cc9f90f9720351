package io.stillwater.bench.feature.compare;

import io.stillwater.bench.feature.measure.MedianInterval;
import io.stillwater.bench.feature.scenario.Metric;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

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
     * Differences in the ratio below this are floating-point noise, not a verdict: 110 against 100
     * is exactly at a 10% threshold (WITHIN) although 110.0 / 100.0 - 1 computes to 0.10000000000000009.
     */
    static final double EPSILON = 1e-9;

    /**
     * A median of 0 on one side only (possible for memory a target reports as 0) has no finite
     * ratio: this is then a regression (other 0) or an improvement (this 0), described by the two
     * values; both 0 is WITHIN, "the same".
     *
     * @param thisKept this side's kept samples, all runs together (empty: not measured)
     * @param otherKept other's, likewise
     * @throws IllegalArgumentException a negative, infinite or NaN sample or threshold
     */
    public static MetricVerdict compare(Metric metric, List<Double> thisKept, List<Double> otherKept,
            double threshold) {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException(metric.label() + ": a threshold must be a finite number >= 0, got "
                    + threshold);
        }
        check(metric, "this", thisKept);
        check(metric, "other", otherKept);
        double t = MedianInterval.median(thisKept);
        double o = MedianInterval.median(otherKept);
        int tn = thisKept.size();
        int on = otherKept.size();
        if (tn == 0 || on == 0) {
            String where = tn == 0 && on == 0 ? "either side" : tn == 0 ? "this" : "other";
            return new MetricVerdict(metric, t, o, tn, on, threshold, FeatureOutcome.NOT_COMPARED,
                    "not measured on " + where);
        }
        FeatureOutcome outcome;
        String text;
        if (t == o) {
            outcome = FeatureOutcome.WITHIN;
            text = within(threshold, "the same");
        } else if (o == 0) {
            outcome = FeatureOutcome.REGRESSION;
            text = (metric == Metric.WALLCLOCK ? "slower: " : "more memory: ") + value(t, metric) + " against "
                    + value(o, metric);
        } else if (t == 0) {
            outcome = FeatureOutcome.IMPROVEMENT;
            text = (metric == Metric.WALLCLOCK ? "faster: " : "less memory: ") + value(t, metric) + " against "
                    + value(o, metric);
        } else {
            double ratio = t / o;
            if (ratio - 1 > threshold + EPSILON) {
                outcome = FeatureOutcome.REGRESSION;
                text = describe(metric, ratio);
            } else if (1 / ratio - 1 > threshold + EPSILON) {
                outcome = FeatureOutcome.IMPROVEMENT;
                text = describe(metric, ratio);
            } else {
                outcome = FeatureOutcome.WITHIN;
                text = within(threshold, describe(metric, ratio));
            }
        }
        return new MetricVerdict(metric, t, o, tn, on, threshold, outcome, text);
    }

    /**
     * What this is compared with other, in words: below 2x "N% slower"/"N% faster" (memory: "N% more
     * memory"/"N% less memory"), from 2x "N.N times slower"/"N.N times faster" (memory: "N.N times
     * the memory"/"N.N times less memory"), "the same" when equal.
     *
     * <p>Both directions are measured from the smaller value, as the thresholds are: "10% faster"
     * means other's median is 10% above this one's, the mirror image of "10% slower". Percentages are
     * whole numbers (one decimal below 1%, "the same" below 0.05%); factors have one decimal below
     * 10, none from 10. A ratio of 0 or infinity (one median 0) is "infinitely faster"/"infinitely
     * slower"; NaN is "not comparable".
     *
     * @param ratio this / other
     */
    public static String describe(Metric metric, double ratio) {
        boolean time = metric == Metric.WALLCLOCK;
        if (Double.isNaN(ratio) || ratio < 0) {
            return "not comparable";
        }
        boolean worse = ratio >= 1;
        if (ratio == 0 || Double.isInfinite(ratio)) {
            return "infinitely " + (time ? (worse ? "slower" : "faster") : (worse ? "more memory" : "less memory"));
        }
        double factor = worse ? ratio : 1 / ratio;
        double pct = (factor - 1) * 100;
        if (pct < 0.05) {
            return "the same";
        }
        if (factor < 2) {
            String n = pct < 0.95 ? String.format(Locale.ROOT, "%.1f", pct) : String.valueOf(Math.round(pct));
            return n + "% " + (time ? (worse ? "slower" : "faster") : (worse ? "more memory" : "less memory"));
        }
        String n = factor < 9.95 ? String.format(Locale.ROOT, "%.1f", factor) : String.valueOf(Math.round(factor));
        return n + " times " + (time ? (worse ? "slower" : "faster") : (worse ? "the memory" : "less memory"));
    }

    /** "within 10% (3% slower)". */
    private static String within(double threshold, String how) {
        return "within " + percent(threshold) + " (" + how + ")";
    }

    /** 0.1 as "10%", 0.125 as "12.5%". */
    static String percent(double fraction) {
        return new BigDecimal(fraction * 100).round(new MathContext(6)).setScale(2, RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString() + "%";
    }

    private static String value(double v, Metric metric) {
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString() + " " + metric.unit();
    }

    private static void check(Metric metric, String side, List<Double> samples) {
        for (Double v : samples) {
            if (v == null || !(v >= 0) || v.isInfinite()) {
                throw new IllegalArgumentException(metric.label() + " on " + side + ": a sample is " + v
                        + "; samples must be finite and >= 0");
            }
        }
    }
}
