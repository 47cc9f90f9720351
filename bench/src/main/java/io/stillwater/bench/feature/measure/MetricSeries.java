package io.stillwater.bench.feature.measure;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.ArrayList;
import java.util.List;

/**
 * The samples of one metric as they arrive. Each metric owns its own series and so its own
 * warm-up: the first {@code warmup} samples of <em>this</em> metric are discarded (a filter shared
 * between metrics discards too few of each). Owned by the thread measuring the side; not thread-safe.
 */
public final class MetricSeries {
    private final Metric metric;
    private final int warmup;
    private final List<Double> discarded = new ArrayList<>();
    private final List<Double> kept = new ArrayList<>();

    public MetricSeries(Metric metric, int warmup) {
        if (warmup < 0) {
            throw new IllegalArgumentException("warmup must be >= 0");
        }
        this.metric = metric;
        this.warmup = warmup;
    }

    public Metric metric() {
        return metric;
    }

    /** Adds the next sample: discarded while this metric is warming up, kept after. */
    public void add(double value) {
        if (discarded.size() < warmup) {
            discarded.add(value);
        } else {
            kept.add(value);
        }
    }

    public List<Double> kept() {
        return List.copyOf(kept);
    }

    public List<Double> discarded() {
        return List.copyOf(discarded);
    }

    public MetricSamples snapshot() {
        return new MetricSamples(metric, discarded, kept);
    }
}
