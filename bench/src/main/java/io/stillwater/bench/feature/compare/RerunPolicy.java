package io.stillwater.bench.feature.compare;

import java.util.Collection;

/**
 * Which scenarios run again. Every scenario runs once on each side; one that regressed in any
 * metric in that first run is run again on both sides until it has {@code runsPerScenario} runs,
 * and its verdict is then taken from all runs together (the pooled medians). It is not stopped early
 * when a re-run looks good (that would be best-of-N by another name), and a scenario that did not
 * regress in its first run is not re-run.
 */
public final class RerunPolicy {
    private final int runsPerScenario;

    public RerunPolicy(int runsPerScenario) {
        if (runsPerScenario < 1) {
            throw new IllegalArgumentException("--runs-per-scenario must be at least 1, got " + runsPerScenario);
        }
        this.runsPerScenario = runsPerScenario;
    }

    public int runsPerScenario() {
        return runsPerScenario;
    }

    /**
     * Whether a scenario needs another run.
     *
     * @param runsDone runs done on each side so far
     * @param firstRunVerdicts the verdicts of the first run alone
     */
    public boolean anotherRun(int runsDone, Collection<MetricVerdict> firstRunVerdicts) {
        if (runsDone < 1) {
            throw new IllegalArgumentException("the first run decides re-runs; asked after " + runsDone + " runs");
        }
        return runsDone < runsPerScenario
                && firstRunVerdicts.stream().anyMatch(v -> v.outcome() == FeatureOutcome.REGRESSION);
    }
}
