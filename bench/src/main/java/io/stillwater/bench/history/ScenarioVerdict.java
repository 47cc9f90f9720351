package io.stillwater.bench.history;

/**
 * The verdict on one scenario of a bench run, worst first: the order {@code runner.ComparisonHistory#outcome}
 * applies when several hold. Only {@link #PASSED} is green.
 */
public enum ScenarioVerdict {
    /** A run threw (construction, setup, load or cleanup); see the reason. */
    FAILED,
    /** Self-verification failed or could not be checked: the numbers measured the wrong thing. */
    INVALID,
    /** A target lacks a capability the scenario needs. */
    SKIPPED,
    /** A gated stat is worse than the other side beyond its threshold. */
    REGRESSED,
    /** This side missed an absolute guarantee. */
    VIOLATED,
    /** Every run completed, nothing regressed, every guarantee held. */
    PASSED;

    public boolean green() {
        return this == PASSED;
    }
}
