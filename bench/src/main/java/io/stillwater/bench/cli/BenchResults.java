package io.stillwater.bench.cli;

import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.SideInfo;
import io.stillwater.bench.report.BenchReport;
import io.stillwater.targets.TargetSpec;
import java.util.Map;

/**
 * Turns a {@link BenchRun} into what the history stores and the reports read: the {@link RunInfo}
 * (sides with their build labels) and the {@link BenchReport} (with the calibrations to show beside
 * each threshold). Pure: no files are touched here.
 */
public final class BenchResults {
    private BenchResults() {
    }

    /**
     * @param thisBuild the label the this side is recorded under ({@code --build}), the key of a later
     *     {@code --compare-to-history}
     */
    public static RunInfo runInfo(BenchRun run, String thisBuild) {
        SideInfo thisSide = new SideInfo(thisBuild, run.thisSide().target().display(), run.thisSide().params().values());
        SideInfo otherSide = switch (run.mode()) {
            case COMPARE -> side(run.other(), thisBuild);
            case CALIBRATE -> thisSide;
            case COMPARE_TO_HISTORY -> new SideInfo(run.historyBuild(), "history:" + run.historyBuild(),
                    run.otherFromHistory().values().stream().findFirst()
                            .map(s -> s.run().info().thisSide().params()).orElse(Map.of()));
            case FEATURE -> throw new IllegalArgumentException("a feature-bench run is not a parallel bench run");
        };
        return new RunInfo(run.started(), run.finished(), run.mode(), RunInfo.FRAMEWORK_VERSION, thisSide, otherSide,
                run.runsPerSide(), run.loadPhaseDuration(), RunInfo.hostFacts());
    }

    /**
     * The other side: embedded runs the bench's own build, so it carries this build's label; a jar or
     * url side is labelled by what it is.
     */
    private static SideInfo side(SideConfig side, String thisBuild) {
        String build = side.target() instanceof TargetSpec.Embedded ? thisBuild : side.target().display();
        return new SideInfo(build, side.target().display(), side.params().values());
    }

    /**
     * The report of a run. Calibrations: a calibration run shows the spreads it just measured; any
     * other run shows the spreads stored in {@code history} (none when there is no history).
     */
    public static BenchReport report(BenchRun run, RunInfo info, HistoryStore history) {
        Calibrations calibrations = run.mode() == RunMode.CALIBRATE ? Calibrations.of(run.calibrations())
                : history == null ? Calibrations.NONE : history.calibrations();
        return BenchReport.of(info, run.comparisons()).withCalibrations(calibrations)
                .withOtherFromHistory(run.otherFromHistory());
    }
}
