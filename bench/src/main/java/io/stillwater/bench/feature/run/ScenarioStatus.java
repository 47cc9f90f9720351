package io.stillwater.bench.feature.run;

/** The verdict of one scenario in a feature run; the run fails when any is REGRESSED or FAILED. */
public enum ScenarioStatus {
    PASSED,
    REGRESSED,
    FAILED,
    SKIPPED
}
