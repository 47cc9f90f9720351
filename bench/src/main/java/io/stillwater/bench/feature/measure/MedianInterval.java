package io.stillwater.bench.feature.measure;

import java.util.List;
import java.util.Optional;

/**
 * A distribution-free confidence interval for the median of a sample: the order statistics
 * {@code x(l)} and {@code x(u)} chosen from the binomial(n, 1/2) distribution so that
 * P(x(l) <= median <= x(u)) >= confidence. No normality is assumed (latencies are skewed).
 *
 * @param lower x(l)
 * @param median the sample median (the mean of the two middle values for an even count)
 * @param upper x(u)
 * @param coverage the interval's exact coverage, at least the confidence asked for
 */
public record MedianInterval(double lower, double median, double upper, double coverage) {

    /** (upper - lower) / median; infinite when the median is 0 and the interval has width. */
    public double relativeWidth() {
        double w = upper - lower;
        return w == 0 ? 0 : median == 0 ? Double.POSITIVE_INFINITY : w / Math.abs(median);
    }

    /**
     * The interval for {@code samples} (any order) at {@code confidence}; empty when there are too
     * few samples for any pair of order statistics to reach it (fewer than 6 at 0.95).
     */
    public static Optional<MedianInterval> of(List<Double> samples, double confidence) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The sample median (mean of the two middle values for an even count); NaN for no samples. */
    public static double median(List<Double> samples) {
        if (samples.isEmpty()) { // TEMP core stub
            return Double.NaN;
        }
        List<Double> s = samples.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
