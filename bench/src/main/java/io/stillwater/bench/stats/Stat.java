package io.stillwater.bench.stats;

import java.util.Arrays;
import java.util.Optional;

/**
 * The statistics reported per action. Units: latency stats in milliseconds, {@code qps} per
 * second, {@code errorRate} a fraction in [0, 1], {@code slope} milliseconds of latency per
 * second of run time. {@link #key()} is the stable name used in reports and history.
 */
public enum Stat {
    QUERIES("queries", Direction.LOWER_IS_WORSE),
    ERRORS("errors", Direction.HIGHER_IS_WORSE),
    ERROR_RATE("error_rate", Direction.HIGHER_IS_WORSE),
    QPS("qps", Direction.LOWER_IS_WORSE),
    MIN("min", Direction.HIGHER_IS_WORSE),
    MAX("max", Direction.HIGHER_IS_WORSE),
    AVG("avg", Direction.HIGHER_IS_WORSE),
    P50("p50", Direction.HIGHER_IS_WORSE),
    P95("p95", Direction.HIGHER_IS_WORSE),
    P99("p99", Direction.HIGHER_IS_WORSE),
    P99_9("p99_9", Direction.HIGHER_IS_WORSE),
    STD("std", Direction.HIGHER_IS_WORSE),
    SLOPE("slope", Direction.HIGHER_IS_WORSE);

    private final String key;
    private final Direction direction;

    Stat(String key, Direction direction) {
        this.key = key;
        this.direction = direction;
    }

    public String key() {
        return key;
    }

    public Direction direction() {
        return direction;
    }

    public static Optional<Stat> byKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }
}
