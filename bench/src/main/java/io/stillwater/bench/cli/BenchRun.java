package io.stillwater.bench.cli;

import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code stillwater bench} invocation measured: what the history and the reports
 * ({@link BenchResults}) read. Immutable.
 *
 * @param other the other side; in {@link RunMode#CALIBRATE} the same as {@code thisSide}; in
 *     {@link RunMode#COMPARE_TO_HISTORY} null (the other results come from the history of
 *     {@code historyBuild})
 * @param loadPhaseDuration the global load-phase override, null when scenarios use their own
 * @param historyBuild the build compared against in {@link RunMode#COMPARE_TO_HISTORY}, else ""
 * @param calibrations per scenario/action/stat spreads; empty unless {@link RunMode#CALIBRATE}
 * @param otherFromHistory the stored other side by scenario, in {@link RunMode#COMPARE_TO_HISTORY}
 */
public record BenchRun(RunMode mode, Instant started, Instant finished, SideConfig thisSide, SideConfig other,
        int runsPerSide, Duration loadPhaseDuration, Shard shard, String historyBuild,
        List<ScenarioComparison> comparisons, List<Calibration> calibrations,
        Map<String, StoredScenario> otherFromHistory) {

    public BenchRun {
        comparisons = List.copyOf(comparisons);
        calibrations = List.copyOf(calibrations);
        otherFromHistory = Map.copyOf(otherFromHistory);
    }

    /** Whether every scenario's outcome passes in this mode ({@link ScenarioOutcome#passes}). */
    public boolean passed() {
        return comparisons.stream().allMatch(this::passed);
    }

    public boolean passed(ScenarioComparison c) {
        return ComparisonHistory.outcome(c).passes(mode);
    }
}
