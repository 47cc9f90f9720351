package io.stillwater.bench.feature.report;

import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.history.RunInfo;
import java.util.List;

/**
 * The one input of every feature-bench report format (terminal, JSON, JUnit, HTML): what ran and
 * what came of it. Formats only read it.
 *
 * @param info the run's metadata (mode {@link io.stillwater.bench.history.RunMode#FEATURE};
 *     {@code runsPerSide} is {@code --runs-per-scenario})
 * @param maxMeasurements {@code --max-measurements}
 * @param scaleOption {@code --scale} as written, or "" when not given
 * @param runId the history row id, or -1 when not recorded
 */
public record FeatureReport(RunInfo info, List<FeatureScenarioResult> scenarios, int maxMeasurements,
        String scaleOption, long runId) {
    public FeatureReport {
        scenarios = List.copyOf(scenarios);
    }

    /** Whether any scenario regressed or failed (the command then exits 1). */
    public boolean failed() {
        return scenarios.stream().anyMatch(s -> s.status() == ScenarioStatus.REGRESSED
                || s.status() == ScenarioStatus.FAILED);
    }
}
