package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.compare.MetricVerdict;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scenario of a feature run: every side run, the verdicts on the pooled samples and the
 * scenario's status.
 *
 * @param groups the scenario's groups, outermost first
 * @param scale the effective SCALE it ran at
 * @param runs every side outcome, in the order run (this 1, other 1, this 2, other 2, ...)
 * @param verdicts one per metric measured on either side (empty when skipped or failed)
 * @param reason why SKIPPED or FAILED, or which metrics regressed; "" when passed
 * @param thisParams effective values of the parameters the scenario depends on (and this side sets),
 *     read back from this side's first measured run
 * @param otherParams likewise on the other side
 */
public record FeatureScenarioResult(String scenario, String version, List<String> groups, double scale,
        List<SideOutcome> runs, List<MetricVerdict> verdicts, ScenarioStatus status, String reason,
        Map<String, String> thisParams, Map<String, String> otherParams) {
    public FeatureScenarioResult {
        groups = List.copyOf(groups);
        runs = List.copyOf(runs);
        verdicts = List.copyOf(verdicts);
        thisParams = Collections.unmodifiableMap(new LinkedHashMap<>(thisParams));
        otherParams = Collections.unmodifiableMap(new LinkedHashMap<>(otherParams));
    }

    /** Runs per side that were done. */
    public int runsPerSide() {
        return (int) runs.stream().filter(r -> r.side().equals("this")).count();
    }
}
