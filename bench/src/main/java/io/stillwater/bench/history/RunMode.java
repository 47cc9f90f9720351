package io.stillwater.bench.history;

/** What a bench run did. */
public enum RunMode {
    /** this versus other, both run now, interleaved. */
    COMPARE,
    /** A/A: the same side twice, to measure run-to-run spread ({@code --calibrate}). */
    CALIBRATE,
    /** this run now, other read from the history file ({@code --compare-to-history}). */
    COMPARE_TO_HISTORY,
    /** A feature-benchmark run ({@code stillwater feature-bench}): repeated timed scenarios, this vs other. */
    FEATURE
}
