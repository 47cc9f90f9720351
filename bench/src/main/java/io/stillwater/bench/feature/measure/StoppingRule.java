package io.stillwater.bench.feature.measure;

import java.util.Collection;
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

    /**
     * @param measurements measurements done so far (warm-up included)
     * @param series every metric's series
     * @return empty to measure again, else why to stop
     */
    public Optional<StopReason> decide(int measurements, Collection<MetricSeries> series) {
        // TEMP core stub: max only
        return measurements >= policy.maxMeasurements() ? Optional.of(StopReason.MAX_MEASUREMENTS) : Optional.empty();
    }
}
