package io.stillwater.bench.history;

import io.stillwater.bench.stats.ActionStatistics;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One scenario's completed runs of one side of a stored bench run, as {@code
 * --compare-to-history} uses them in place of running the other build again.
 *
 * @param version the scenario version the runs measured; compare only with the same version
 * @param runs each completed run's statistics by action, in run order (the input of
 *     {@code gate.Verdicts#compare})
 * @param histograms each run's success histogram by action (microseconds), parallel to {@code
 *     runs}; Histogram is mutable, so treat these as read-only
 */
public record StoredScenario(StoredRun run, String scenario, String version, List<Map<String, ActionStatistics>> runs,
        List<Map<String, Histogram>> histograms) {
    public StoredScenario {
        runs = List.copyOf(runs);
        histograms = List.copyOf(histograms);
    }
}
