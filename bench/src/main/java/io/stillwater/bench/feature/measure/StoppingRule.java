package io.stillwater.bench.feature.measure;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * When one side of one run has measured enough. After each measurement:
 * <ol>
 *   <li>when {@code maxMeasurements} measurements are done: stop ({@link StopReason#MAX_MEASUREMENTS});
 *   <li>else, when every metric has at least {@code minKept} kept samples and the
 *       {@code confidence} {@link MedianInterval} of each metric's kept samples is no wider than
 *       {@code maxRelativeWidth} of its median: stop ({@link StopReason#CONFIDENT});
 *   <li>else measure again.
 * </ol>
 * Warm-up samples never count: the interval is computed from kept samples only.
 */
public final class StoppingRule {
    private final MeasurementPolicy policy;

    public StoppingRule(MeasurementPolicy policy) {
        this.policy = policy;
    }

    public MeasurementPolicy policy() {
        return policy;
    }

    /**
     * A series without any sample at all (neither discarded nor kept: a metric the target does not
     * expose) does not block: the rule is decided over the series that have samples. A series still
     * warming up (samples discarded, none kept yet) does block. With no samples in any series the rule
     * never holds, so only the maximum stops.
     *
     * @param measurements measurements done so far (warm-up included)
     * @param series every metric's series
     * @return empty to measure again, else why to stop
     */
    public Optional<StopReason> decide(int measurements, Collection<MetricSeries> series) {
        if (measurements >= policy.maxMeasurements()) {
            return Optional.of(StopReason.MAX_MEASUREMENTS);
        }
        boolean any = false;
        for (MetricSeries s : series) {
            List<Double> kept = s.kept();
            if (kept.isEmpty() && s.discarded().isEmpty()) {
                continue; // not measured on this target
            }
            any = true;
            if (!confident(kept)) {
                return Optional.empty();
            }
        }
        return any ? Optional.of(StopReason.CONFIDENT) : Optional.empty();
    }

    /** Whether {@code kept} alone satisfies the rule: enough samples and a narrow enough interval. */
    public boolean confident(List<Double> kept) {
        if (kept.size() < policy.minKept()) {
            return false;
        }
        return MedianInterval.of(kept, policy.confidence())
                .filter(i -> i.relativeWidth() <= policy.maxRelativeWidth())
                .isPresent();
    }
}
