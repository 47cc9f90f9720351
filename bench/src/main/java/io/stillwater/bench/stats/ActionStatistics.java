package io.stillwater.bench.stats;

import java.util.Map;

/**
 * The statistics of one action over one scenario run; see {@link LatencyRecorder#statistics()}
 * for the single definition of every field. Latency fields are {@code NaN} when the action had
 * no successful query. {@code errorCounts} maps each distinct error text (SQLSTATE: message) to
 * how often it occurred.
 */
public record ActionStatistics(
        String action,
        long queries,
        long errors,
        double errorRate,
        double qps,
        double min,
        double max,
        double avg,
        double p50,
        double p95,
        double p99,
        double p99_9,
        double std,
        double slope,
        double wallSeconds,
        Map<String, Long> errorCounts) {

    public ActionStatistics {
        errorCounts = Map.copyOf(errorCounts);
    }

    public double value(Stat stat) {
        return switch (stat) {
            case QUERIES -> queries;
            case ERRORS -> errors;
            case ERROR_RATE -> errorRate;
            case QPS -> qps;
            case MIN -> min;
            case MAX -> max;
            case AVG -> avg;
            case P50 -> p50;
            case P95 -> p95;
            case P99 -> p99;
            case P99_9 -> p99_9;
            case STD -> std;
            case SLOPE -> slope;
        };
    }
}
