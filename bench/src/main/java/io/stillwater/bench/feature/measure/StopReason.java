package io.stillwater.bench.feature.measure;

/** Why a side stopped measuring. */
public enum StopReason {
    /** The stopping rule held for every metric. */
    CONFIDENT,
    /** {@code --max-measurements} was reached first; the median is less certain than the rule asks. */
    MAX_MEASUREMENTS
}
