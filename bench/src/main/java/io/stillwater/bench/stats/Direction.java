package io.stillwater.bench.stats;

/** Which way a statistic gets worse. */
public enum Direction {
    /** Larger is worse: latencies, error rate, slope. */
    HIGHER_IS_WORSE,
    /** Smaller is worse: throughput. */
    LOWER_IS_WORSE
}
