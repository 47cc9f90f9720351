package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.runner.TargetLauncher;
import java.util.List;
import java.util.Set;

/**
 * A whole feature run: for each scenario of the suite, this then other (run 1), the verdicts of run
 * 1, further runs per {@link RerunPolicy}, the final verdicts on all runs together. A scenario
 * skipped or failed on either side gets that status and the run goes on with the next scenario.
 *
 * <p>Each run of a scenario uses a fresh instance of its class (same scale), so no state leaks
 * between runs.
 */
public final class FeatureSession {
    private final FeatureRunner runner;
    private final RerunPolicy rerun;
    private final FeatureProgress progress;

    public FeatureSession(FeatureRunner runner, RerunPolicy rerun, FeatureProgress progress) {
        this.runner = runner;
        this.rerun = rerun;
        this.progress = progress;
    }

    /**
     * @param sideParamNames the names either side's {@code --*-params} sets (read back on both sides)
     */
    public List<FeatureScenarioResult> run(FeatureSuite suite, TargetLauncher thisSide, TargetLauncher otherSide,
            Set<String> sideParamNames) {
        throw new UnsupportedOperationException("TODO");
    }
}
