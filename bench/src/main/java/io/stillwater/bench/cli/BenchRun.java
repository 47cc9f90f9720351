package io.stillwater.bench.cli;

import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Everything one {@code stillwater bench} invocation produced: what reporters and the history
 * read. Immutable.
 *
 * @param other the other side; in {@link Mode#CALIBRATE} the same as {@code thisSide}; in
 *     {@link Mode#HISTORY} null (the other results come from the history of {@code historyBuild})
 * @param loadPhaseDuration the global load-phase override, null when scenarios use their own
 * @param historyBuild the build compared against in {@link Mode#HISTORY}, else ""
 * @param calibrations per scenario/action/stat spreads; empty unless {@link Mode#CALIBRATE}
 * @param resultsDir where report files go
 */
public record BenchRun(Mode mode, Instant started, Instant finished, SideConfig thisSide, SideConfig other,
        int runsPerSide, Duration loadPhaseDuration, Shard shard, String historyBuild,
        List<ScenarioComparison> comparisons, List<Calibration> calibrations, Path resultsDir) {

    public enum Mode {
        /** this versus other, interleaved runs. */
        COMPARE,
        /** A/A: this versus this, to measure run-to-run spread. */
        CALIBRATE,
        /** this versus stored results of another build. */
        HISTORY
    }

    public BenchRun {
        comparisons = List.copyOf(comparisons);
        calibrations = List.copyOf(calibrations);
    }

    /**
     * Whether the run is green: no regression (except in an A/A calibration, where a "regression" is
     * noise and is what the calibration measures), no failed run, no missed guarantee on this side.
     * A scenario skipped for a missing capability is not a failure.
     */
    public boolean passed() {
        return comparisons.stream().allMatch(this::passed);
    }

    public boolean passed(ScenarioComparison c) {
        if (mode != Mode.CALIBRATE && c.regressed()) {
            return false;
        }
        if (c.thisRuns().stream().anyMatch(r -> r.status() == ScenarioResult.Status.FAILED || !r.violations().isEmpty())
                || c.otherRuns().stream().anyMatch(r -> r.status() == ScenarioResult.Status.FAILED)) {
            return false;
        }
        // Asked to compare against history and this side ran, but there was nothing to compare with:
        // never green by omission.
        boolean thisCompleted = c.thisRuns().stream().anyMatch(r -> r.status() == ScenarioResult.Status.COMPLETED);
        return !(mode == Mode.HISTORY && thisCompleted && c.verdicts().isEmpty());
    }
}
