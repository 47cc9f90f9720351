package io.stillwater.bench.gate;

import io.stillwater.bench.stats.Stat;
import java.util.EnumMap;
import java.util.Map;

/** A complete threshold for every stat of one action: defaults, then overrides. */
public record Thresholds(Map<Stat, Threshold> byStat) {

    /**
     * qps 1.2 (lower is worse); avg 1.2, p50 1.2, p95 1.3 (higher is worse); error rate an
     * absolute increase of more than 0.01; every other stat (queries, errors, min, max, p99,
     * p99.9, std, slope) reported but ungated.
     */
    public static final Thresholds DEFAULT;

    /** Every stat ungated: contention-only loads ({@code reportRegressions(false)}). */
    public static final Thresholds ALL_UNGATED;

    static {
        Map<Stat, Threshold> d = new EnumMap<>(Stat.class);
        Map<Stat, Threshold> u = new EnumMap<>(Stat.class);
        for (Stat s : Stat.values()) {
            d.put(s, Threshold.UNGATED);
            u.put(s, Threshold.UNGATED);
        }
        d.put(Stat.QPS, Threshold.ratio(1.2));
        d.put(Stat.AVG, Threshold.ratio(1.2));
        d.put(Stat.P50, Threshold.ratio(1.2));
        d.put(Stat.P95, Threshold.ratio(1.3));
        d.put(Stat.ERROR_RATE, Threshold.absoluteIncrease(0.01));
        DEFAULT = new Thresholds(d);
        ALL_UNGATED = new Thresholds(u);
    }

    public Thresholds {
        byStat = Map.copyOf(byStat);
        for (Stat s : Stat.values()) {
            if (!byStat.containsKey(s)) {
                throw new IllegalArgumentException("thresholds lack a value for " + s.key());
            }
        }
    }

    public Threshold of(Stat stat) {
        return byStat.get(stat);
    }

    public Thresholds with(Overrides overrides) {
        Map<Stat, Threshold> m = new EnumMap<>(Stat.class);
        m.putAll(byStat);
        m.putAll(overrides.byStat());
        return new Thresholds(m);
    }
}
