package io.stillwater.bench.feature.run;

import java.util.List;

/**
 * One scenario of a recorded feature-bench run, reduced to what {@code feature-bench
 * --compare-to-history BUILD} compares a fresh this side against: the stored run's own this-side
 * measurements (the build's measurements, never what that run compared them with).
 *
 * @param runId the stored run
 * @param build the stored run's this-side label
 * @param version the scenario version it ran with (never compared across versions)
 * @param scale the effective SCALE it ran at (never compared across scales)
 * @param status the scenario's status in the stored run
 * @param thisRuns every measured this-side run, in run order, with its samples (discarded and kept);
 *     empty when this side was skipped or failed there
 */
public record StoredFeatureScenario(long runId, String build, String scenario, String version, double scale,
        ScenarioStatus status, List<SideRun> thisRuns) {
    public StoredFeatureScenario {
        thisRuns = List.copyOf(thisRuns);
        if (thisRuns.stream().anyMatch(r -> !r.side().equals("this"))) {
            throw new IllegalArgumentException("stored this-side runs only");
        }
    }
}
