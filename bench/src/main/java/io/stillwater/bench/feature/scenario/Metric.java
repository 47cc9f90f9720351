package io.stillwater.bench.feature.scenario;

import java.util.Locale;

/**
 * What one measurement of a feature scenario records. Every metric has its own series of samples,
 * its own warm-up and its own default threshold; lower is better for all of them.
 */
public enum Metric {
    /** The timed span (start of the statement marked A to the end of the one marked B), in milliseconds. */
    WALLCLOCK("ms", 0.10),
    /**
     * The engine's heap after a full GC, in MiB, taken after each measurement: embedded targets (in
     * process) and jar targets (asked to GC); a url target reports the heap after its last GC when it
     * exposes {@code mz_internal.mz_process_memory}.
     */
    MEMORY_HEAP("MiB", 0.20),
    /** Resident set size of a jar target's serve process (from /proc), in MiB, after each measurement. */
    MEMORY_RSS("MiB", 0.20);

    private final String unit;
    private final double defaultThreshold;

    Metric(String unit, double defaultThreshold) {
        this.unit = unit;
        this.defaultThreshold = defaultThreshold;
    }

    public String unit() {
        return unit;
    }

    /** The default relative threshold: this regresses when {@code this/other - 1 > threshold}. */
    public double defaultThreshold() {
        return defaultThreshold;
    }

    /** The lower-case name used in reports, history and JSON ({@code wallclock}, {@code memory_heap}, ...). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
