package io.stillwater.bench.gate;

import io.stillwater.bench.stats.Stat;
import java.util.EnumMap;
import java.util.Map;

/**
 * Per-action threshold overrides: the stats named here replace the default; the others keep it.
 * Immutable; {@link #with} returns a copy.
 */
public record Overrides(Map<Stat, Threshold> byStat) {

    /** No overrides. */
    public static final Overrides NONE = new Overrides(Map.of());

    /**
     * For measured loops under deliberate contention: 1.5 on qps (a closed loop's qps is 1/avg,
     * so it must loosen with avg), avg, p50 and p95. p99 keeps its default: ungated.
     */
    public static final Overrides CONTENDED = NONE
            .with(Stat.QPS, Threshold.ratio(1.5))
            .with(Stat.AVG, Threshold.ratio(1.5))
            .with(Stat.P50, Threshold.ratio(1.5))
            .with(Stat.P95, Threshold.ratio(1.5));

    public Overrides {
        byStat = Map.copyOf(byStat);
    }

    public Overrides with(Stat stat, Threshold threshold) {
        Map<Stat, Threshold> m = new EnumMap<>(Stat.class);
        m.putAll(byStat);
        m.put(stat, threshold);
        return new Overrides(m);
    }

    /** These overrides, then {@code later}'s on top. */
    public Overrides with(Overrides later) {
        Map<Stat, Threshold> m = new EnumMap<>(Stat.class);
        m.putAll(byStat);
        m.putAll(later.byStat);
        return new Overrides(m);
    }
}
