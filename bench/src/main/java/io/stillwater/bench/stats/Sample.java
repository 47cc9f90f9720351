package io.stillwater.bench.stats;

/**
 * One query in the time series kept for plots: its (scheduled, for open loops) start as an offset
 * in milliseconds from the scenario's first load phase, its latency in microseconds, and whether
 * it succeeded. Failed queries are in the series too, so a plot shows when they happened.
 */
public record Sample(double offsetMillis, double latencyMicros, boolean ok) {
}
