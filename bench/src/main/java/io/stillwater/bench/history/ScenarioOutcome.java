package io.stillwater.bench.history;


/** A scenario's verdict with the reason a person reads (empty for PASSED). */
public record ScenarioOutcome(ScenarioVerdict verdict, String reason) {

    /**
     * Whether this outcome lets a run of {@code mode} pass (exit status 0, a green report): PASSED,
     * SKIPPED for a missing capability, and in an A/A calibration also REGRESSED (there a
     * "regression" is the noise being measured). The one rule the command and every report use.
     */
    public boolean passes(RunMode mode) {
        return verdict == ScenarioVerdict.PASSED || verdict == ScenarioVerdict.SKIPPED
                || mode == RunMode.CALIBRATE && verdict == ScenarioVerdict.REGRESSED;
    }
}
