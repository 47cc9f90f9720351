package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.runner.TargetLauncher;

/**
 * Runs one scenario instance on one side once: launch the target, check capabilities, run
 * cleanup/shared/init, then measure (before + benchmark per measurement on a fresh connection,
 * wallclock from the start of A to the end of B, memory after each measurement) until the
 * {@link io.stillwater.bench.feature.measure.StoppingRule} or the maximum, then cleanup and close the
 * target. A failure anywhere becomes {@link SideOutcome.Failed} (naming the statement and its
 * SQLSTATE); a missing capability or a restart on a url target becomes {@link SideOutcome.Skipped}.
 */
public final class FeatureRunner {
    private final MeasurementPolicy policy;
    private final FeatureProgress progress;

    public FeatureRunner(MeasurementPolicy policy, FeatureProgress progress) {
        this.policy = policy;
        this.progress = progress;
    }

    /**
     * @param side "this" or "other"
     * @param params the parameters whose effective values to read back and record: the scenario's
     *     {@code dependsOnParams()} plus the names either side sets
     */
    public SideOutcome run(FeatureScenario scenario, String side, int runNumber, TargetLauncher launcher,
            java.util.Set<String> params) {
        throw new UnsupportedOperationException("TODO");
    }
}
