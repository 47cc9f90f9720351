package io.stillwater.bench.history;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.stats.ActionStatistics;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One scenario of a parallel-bench run in the history's own model: what {@link HistoryStore#recordRun}
 * writes to the {@code scenarios}, {@code scenario_runs}, {@code stats}, {@code error_counts},
 * {@code histograms} and {@code verdicts} tables. The parallel bench maps its comparisons to this
 * record ({@code runner.ComparisonHistory}); the history knows nothing of how they were measured.
 *
 * @param version the scenario version the runs measured (empty when no run reported one)
 * @param thisRuns every run of this side in run order (run number = position + 1)
 * @param otherRuns every run of the other side in run order
 */
public record RecordedScenario(String scenario, String version, ScenarioOutcome outcome, List<Run> thisRuns,
        List<Run> otherRuns, List<StatVerdict> verdicts) {

    public RecordedScenario {
        thisRuns = List.copyOf(thisRuns);
        otherRuns = List.copyOf(otherRuns);
        verdicts = List.copyOf(verdicts);
    }

    /**
     * One run of one side.
     *
     * @param status the run's status name (COMPLETED, FAILED, SKIPPED, INVALID); only COMPLETED runs
     *     are read back by {@link HistoryStore#statsFor}
     * @param messages e.g. the system parameters in effect, read back after the launch
     * @param actions the statistics of each action, in the order they are stored
     * @param histograms each action's success histogram (microseconds); an action without one
     *     is stored with an empty histogram
     */
    public record Run(String version, String status, String failure, List<String> messages,
            Map<String, ActionStatistics> actions, Map<String, Histogram> histograms) {
        public Run {
            messages = List.copyOf(messages);
        }
    }
}
