package io.stillwater.bench.feature.measure;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.List;

/**
 * The samples of one metric on one side of one run, in the order measured.
 *
 * @param discarded the warm-up samples (never compared)
 * @param kept the samples compared
 */
public record MetricSamples(Metric metric, List<Double> discarded, List<Double> kept) {
    public MetricSamples {
        discarded = List.copyOf(discarded);
        kept = List.copyOf(kept);
    }
}
