package io.stillwater.bench.feature.compare;

/** One metric of one scenario, this against other. */
public enum FeatureOutcome {
    /** this/other - 1 above the threshold: worse beyond the noise allowance. */
    REGRESSION,
    /** other/this - 1 above the threshold: better beyond it (never fails a run). */
    IMPROVEMENT,
    /** Within the threshold either way. */
    WITHIN,
    /** Only one side measured it (e.g. RSS on a jar target against an embedded one). */
    NOT_COMPARED
}
