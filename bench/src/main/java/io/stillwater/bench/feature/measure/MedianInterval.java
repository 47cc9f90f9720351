package io.stillwater.bench.feature.measure;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A distribution-free confidence interval for the median of a sample: the order statistics
 * {@code x(l)} and {@code x(u)} chosen from the binomial(n, 1/2) distribution so that
 * P(x(l) <= median <= x(u)) >= confidence. No normality is assumed (latencies are skewed).
 *
 * <p>The binomial sums are computed exactly with big integers: cost grows with n squared (in bits),
 * which is nothing at the counts a side measures (tens to a few thousand samples).
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
     *
     * <p>With the samples sorted x(1) <= ... <= x(n), the interval is [x(k), x(n+1-k)] for the
     * largest k whose exact coverage {@link #coverage(int, int)} is at least {@code confidence}
     * (the narrowest symmetric pair that still reaches it).
     *
     * @throws IllegalArgumentException a sample that is NaN, or a confidence outside (0, 1)
     */
    public static Optional<MedianInterval> of(List<Double> samples, double confidence) {
        double[] sorted = sorted(samples);
        OptionalInt k = lowerRank(sorted.length, confidence);
        if (k.isEmpty()) {
            return Optional.empty();
        }
        int n = sorted.length;
        int l = k.getAsInt();
        return Optional.of(new MedianInterval(sorted[l - 1], median(sorted), sorted[n - l], coverage(n, l)));
    }

    /** The sample median (mean of the two middle values for an even count); NaN for no samples. */
    public static double median(List<Double> samples) {
        return median(sorted(samples));
    }

    /**
     * The rank k of the interval's lower end (the upper end is n+1-k) for {@code n} samples: the
     * largest k with {@code coverage(n, k) >= confidence}; empty when even k = 1 falls short. It never
     * decreases as n grows (for a fixed k the coverage grows with n).
     */
    public static OptionalInt lowerRank(int n, double confidence) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
        }
        if (n < 2) {
            return OptionalInt.empty();
        }
        BigInteger all = BigInteger.ONE.shiftLeft(n);
        BigDecimal need = new BigDecimal(confidence).multiply(new BigDecimal(all));
        // tail = C(n,0) + ... + C(n,k-1): the count of outcomes with fewer than k samples below the
        // median; coverage(n, k) = (2^n - 2 tail) / 2^n, compared exactly (no rounding at the boundary)
        BigInteger term = BigInteger.ONE;
        BigInteger tail = BigInteger.ZERO;
        int best = 0;
        for (int k = 1; 2 * k <= n; k++) {
            tail = tail.add(term);
            BigInteger covered = all.subtract(tail.shiftLeft(1));
            if (new BigDecimal(covered).compareTo(need) < 0) {
                break;
            }
            best = k;
            term = term.multiply(BigInteger.valueOf(n - k + 1)).divide(BigInteger.valueOf(k));
        }
        return best == 0 ? OptionalInt.empty() : OptionalInt.of(best);
    }

    /**
     * P(x(k) <= true median <= x(n+1-k)) for n samples of a continuous distribution: the probability
     * that a binomial(n, 1/2) count of samples below the median is in [k, n-k], that is
     * {@code 1 - 2 * P(B <= k-1)}. Exact up to the final conversion to double.
     */
    public static double coverage(int n, int k) {
        if (n < 1 || k < 1 || 2 * k > n + 1) {
            throw new IllegalArgumentException("need 1 <= k <= (n+1)/2, got n=" + n + ", k=" + k);
        }
        BigInteger term = BigInteger.ONE;
        BigInteger tail = BigInteger.ZERO;
        for (int i = 0; i < k; i++) {
            tail = tail.add(term);
            term = term.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        BigInteger all = BigInteger.ONE.shiftLeft(n);
        return new BigDecimal(all.subtract(tail.shiftLeft(1)))
                .divide(new BigDecimal(all), MathContext.DECIMAL64).doubleValue();
    }

    private static double[] sorted(List<Double> samples) {
        double[] a = new double[samples.size()];
        for (int i = 0; i < a.length; i++) {
            Double v = samples.get(i);
            if (v == null || v.isNaN()) {
                throw new IllegalArgumentException("sample " + (i + 1) + " of " + a.length + " is " + v
                        + "; a median needs numbers");
            }
            a[i] = v;
        }
        Arrays.sort(a);
        return a;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
