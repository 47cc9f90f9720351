package io.stillwater.bench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Every sample of one action: successes into an HdrHistogram (microseconds, 3 significant
 * digits, auto-resizing), every query (success or failure) into a time series, failures counted
 * per distinct error text. Nothing is dropped. Thread-safe: all load workers of the action record
 * concurrently; every method synchronizes on the recorder.
 *
 * <p>This class holds the only definition of the statistics (the reference harness had two
 * stores that disagreed):
 * <ul>
 *   <li>{@code queries} = finished queries, successful or failed; {@code errors} = failed ones;
 *       {@code errorRate} = errors / queries (0 when there were none).</li>
 *   <li>{@code qps} = successful queries / load-phase wall time, where the wall time of a phase
 *       runs from its start until its last query finished, summed over the load phases the
 *       action ran in. Setup and cleanup are never in the denominator.</li>
 *   <li>{@code min}, {@code max}, {@code avg} and {@code std} are exact over the successful
 *       latencies; {@code std} is the <em>sample</em> standard deviation (n - 1; 0 when n &lt; 2).</li>
 *   <li>{@code p50}...{@code p99_9}: nearest rank from the histogram (the smallest recorded value
 *       such that at least q% of successful samples are &lt;= it), reported as the bucket's
 *       highest equivalent value, so within 0.1% of the exact rank value.</li>
 *   <li>{@code slope}: least-squares fit of successful latency (ms) against start offset (s), in
 *       ms per s; 0 with fewer than two samples or no spread in time.</li>
 * </ul>
 */
public final class LatencyRecorder {
    private final String action;
    private final Histogram histogram = new Histogram(3);
    private long[] offsets = new long[1024];
    private long[] latencies = new long[1024];
    private boolean[] ok = new boolean[1024];
    private int size;
    private long errors;
    private long wallNanos;
    private final Map<String, Long> errorCounts = new TreeMap<>();

    public LatencyRecorder(String action) {
        this.action = action;
    }

    public String action() {
        return action;
    }

    /** A successful query that started at {@code offsetNanos} and took {@code latencyNanos}. */
    public synchronized void recordSuccess(long offsetNanos, long latencyNanos) {
        append(offsetNanos, latencyNanos, true);
        histogram.recordValue(Math.max(0, latencyNanos) / 1_000);
    }

    /** A failed query; {@code errorText} is typically "SQLSTATE: message". */
    public synchronized void recordFailure(long offsetNanos, long latencyNanos, String errorText) {
        append(offsetNanos, latencyNanos, false);
        errors++;
        errorCounts.merge(errorText, 1L, Long::sum);
    }

    /** Adds the wall time of one load phase the action ran in. */
    public synchronized void addWallTime(long nanos) {
        wallNanos += nanos;
    }

    public synchronized int size() {
        return size;
    }

    public synchronized List<Sample> samples() {
        List<Sample> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(new Sample(offsets[i] / 1e6, latencies[i] / 1e3, ok[i]));
        }
        return out;
    }

    /** A copy of the success histogram (microseconds), e.g. for encoding into history. */
    public synchronized Histogram histogram() {
        return histogram.copy();
    }

    public synchronized ActionStatistics statistics() {
        long successes = size - errors;
        double wallSeconds = wallNanos / 1e9;
        double errorRate = size == 0 ? 0 : (double) errors / size;
        double qps = wallNanos == 0 ? 0 : successes / wallSeconds;
        double min = Double.NaN;
        double max = Double.NaN;
        double avg = Double.NaN;
        double std = Double.NaN;
        double slope = Double.NaN;
        double p50 = Double.NaN;
        double p95 = Double.NaN;
        double p99 = Double.NaN;
        double p999 = Double.NaN;
        if (successes > 0) {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            double sum = 0;
            for (int i = 0; i < size; i++) {
                if (ok[i]) {
                    lo = Math.min(lo, latencies[i]);
                    hi = Math.max(hi, latencies[i]);
                    sum += latencies[i];
                }
            }
            double meanNanos = sum / successes;
            double sq = 0;
            // slope: x = offset in s, y = latency in ms; centred sums for numerical stability
            double meanX = 0;
            for (int i = 0; i < size; i++) {
                if (ok[i]) {
                    double d = latencies[i] - meanNanos;
                    sq += d * d;
                    meanX += offsets[i] / 1e9;
                }
            }
            meanX /= successes;
            double sxy = 0;
            double sxx = 0;
            for (int i = 0; i < size; i++) {
                if (ok[i]) {
                    double dx = offsets[i] / 1e9 - meanX;
                    sxy += dx * (latencies[i] - meanNanos) / 1e6;
                    sxx += dx * dx;
                }
            }
            min = lo / 1e6;
            max = hi / 1e6;
            avg = meanNanos / 1e6;
            std = successes < 2 ? 0 : Math.sqrt(sq / (successes - 1)) / 1e6;
            slope = successes < 2 || sxx == 0 ? 0 : sxy / sxx;
            p50 = percentileMillis(50);
            p95 = percentileMillis(95);
            p99 = percentileMillis(99);
            p999 = percentileMillis(99.9);
        }
        return new ActionStatistics(action, size, errors, errorRate, qps, min, max, avg, p50, p95, p99, p999, std,
                slope, wallSeconds, errorCounts);
    }

    private double percentileMillis(double q) {
        return histogram.getValueAtPercentile(q) / 1e3;
    }

    private void append(long offsetNanos, long latencyNanos, boolean success) {
        if (size == offsets.length) {
            int n = size * 2;
            offsets = Arrays.copyOf(offsets, n);
            latencies = Arrays.copyOf(latencies, n);
            ok = Arrays.copyOf(ok, n);
        }
        offsets[size] = offsetNanos;
        latencies[size] = latencyNanos;
        ok[size] = success;
        size++;
    }
}
