package io.stillwater.bench.history;

import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * One scenario's completed runs of one side of a stored bench run, as {@code
 * --compare-to-history} uses them in place of running the other build again.
 *
 * @param version the scenario version the runs measured; compare only with the same version
 * @param runs each completed run's statistics by action, in run order (the input of
 *     {@link io.stillwater.bench.gate.Verdicts#compare})
 * @param histograms each run's success histogram by action (microseconds), parallel to {@code
 *     runs}; Histogram is mutable, so treat these as read-only
 */
public record StoredScenario(StoredRun run, String scenario, String version, List<Map<String, ActionStatistics>> runs,
        List<Map<String, Histogram>> histograms) {
    public StoredScenario {
        runs = List.copyOf(runs);
        histograms = List.copyOf(histograms);
    }

    /**
     * {@code --compare-to-history}: compares fresh runs of this side against these stored runs as
     * the other side, by the median like {@link io.stillwater.bench.runner.Runner#compare}. The
     * comparison has no other runs (the charts take the stored histograms instead). Failed fresh
     * runs and a scenario version that differs from the stored one are problems: the comparison is
     * then never green, because it would compare different workloads.
     *
     * @param thresholds resolves an action to its thresholds ({@code ScenarioDefinition::thresholdsFor})
     */
    public ScenarioComparison against(List<ScenarioResult> thisRuns, Function<String, Thresholds> thresholds) {
        List<String> problems = new ArrayList<>();
        List<Map<String, ActionStatistics>> fresh = new ArrayList<>();
        for (int i = 0; i < thisRuns.size(); i++) {
            ScenarioResult r = thisRuns.get(i);
            if (r.status() == ScenarioResult.Status.COMPLETED) {
                fresh.add(r.actions());
                if (!r.version().equals(version)) {
                    problems.add("this run " + (i + 1) + " measured version " + r.version() + " but the history of "
                            + run.info().thisSide().build() + " (run " + run.id() + ") has version " + version
                            + ": not comparable");
                }
            } else {
                problems.add("this run " + (i + 1) + " " + r.status() + ": " + r.failure());
            }
        }
        return new ScenarioComparison(scenario, thisRuns, List.of(),
                Verdicts.compare(fresh, runs, thresholds), problems.stream().distinct().toList());
    }
}
