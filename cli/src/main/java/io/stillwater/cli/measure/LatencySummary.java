package io.stillwater.cli.measure;

import org.HdrHistogram.Histogram;

/** Latency statistics of one measured operation, in microseconds. */
record LatencySummary(long count, double p50, double p99, double mean, double max) {
    static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) return new LatencySummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        return new LatencySummary(micros.getTotalCount(), micros.getValueAtPercentile(50),
                micros.getValueAtPercentile(99), micros.getMean(), micros.getMaxValue());
    }

    /** A histogram for latencies from 1 µs to 10 minutes at 3 significant digits. */
    static Histogram newHistogram() { return new Histogram(1, 600_000_000L, 3); }
}
