package io.stillwater.bench.feature.measure;

/**
 * How many measurements one side of one run takes. Each metric discards its own first
 * {@code warmup} samples; then measuring stops as soon as the {@link StoppingRule} holds for every
 * metric, or after {@code maxMeasurements} measurements in all (warm-up included).
 *
 * @param warmup samples discarded per metric before any is kept (reduced to
 *     {@code maxMeasurements - 1} when the maximum is smaller, so at least one is kept)
 * @param minKept kept samples needed before the stopping rule is consulted
 * @param maxMeasurements measurements in all, warm-up included ({@code --max-measurements})
 * @param confidence the confidence level of the median's interval (e.g. 0.95)
 * @param maxRelativeWidth the rule holds when (upper - lower) / median of that interval is at most this
 */
public record MeasurementPolicy(int warmup, int minKept, int maxMeasurements, double confidence,
        double maxRelativeWidth) {
    /** 2 warm-up, at least 6 kept, at most 20 in all, 95% interval no wider than 10% of the median. */
    public static final MeasurementPolicy DEFAULT = new MeasurementPolicy(2, 6, 20, 0.95, 0.10);

    public MeasurementPolicy {
        if (warmup < 0 || minKept < 1 || maxMeasurements < 1) {
            throw new IllegalArgumentException("warmup >= 0, minKept >= 1 and maxMeasurements >= 1 required");
        }
        if (!(confidence > 0 && confidence < 1) || !(maxRelativeWidth > 0)) {
            throw new IllegalArgumentException("confidence in (0, 1) and maxRelativeWidth > 0 required");
        }
    }

    public MeasurementPolicy withMaxMeasurements(int max) {
        return new MeasurementPolicy(warmup, minKept, max, confidence, maxRelativeWidth);
    }

    /** The warm-up actually applied: {@code min(warmup, maxMeasurements - 1)}. */
    public int effectiveWarmup() {
        return Math.min(warmup, maxMeasurements - 1);
    }
}
