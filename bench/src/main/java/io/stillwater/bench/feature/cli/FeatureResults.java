package io.stillwater.bench.feature.cli;

import io.stillwater.bench.cli.CommandFlow;
import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.report.FeatureReport;
import io.stillwater.bench.report.FeatureTerminalTable;
import io.stillwater.bench.report.ReportFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What {@code feature-bench} does with a finished run (the feature bench's counterpart of {@code
 * cli.BenchResults}): records it in the history with its calibrations, prints the verdict table and
 * writes the report files, each step even if an earlier one failed. One instance per run; not
 * thread-safe.
 */
final class FeatureResults {
    private final CommandFlow flow;
    private final boolean calibrate;
    private final String scale;
    private final Path results;
    private FeatureReport report;

    /**
     * @param calibrate an A/A run whose spreads are stored
     * @param scale the {@code --scale} text, or null
     * @param results the {@code --results} directory
     */
    FeatureResults(CommandFlow flow, boolean calibrate, String scale, Path results) {
        this.flow = flow;
        this.calibrate = calibrate;
        this.scale = scale;
        this.results = results;
    }

    /** The report of the run {@link #finish} was given; null before. */
    FeatureReport report() {
        return report;
    }

    /**
     * Records the run, prints the table and writes the report files; each step runs even if an
     * earlier one failed.
     *
     * @return whether every step succeeded
     */
    boolean finish(RunInfo info, List<FeatureScenarioResult> outcome, int max, HistoryStore history,
            PrintWriter out, PrintWriter err) {
        boolean ok = history != null;
        long runId = -1;
        if (history != null) {
            try {
                runId = FeatureHistory.record(history, info, outcome);
            } catch (RuntimeException e) {
                ok = false;
                err.println("stillwater feature-bench: recording the run in " + history.file() + " failed: "
                        + e.getMessage());
            }
        }
        report = new FeatureReport(info, outcome, max, scale == null ? "" : scale, runId);
        ok &= calibrations(history, runId, err);
        out.println();
        out.print(FeatureTerminalTable.render(report));
        FeatureReport written = report;
        ok &= flow.writeReports(() -> ReportFiles.writeAll(written, results), results,
                history == null || runId < 0 ? "" : "; history: " + history.file() + " (run " + runId + ")", out, err);
        out.println("elapsed: " + human(Duration.between(info.started(), info.finished())));
        out.flush();
        err.flush();
        return ok;
    }

    /**
     * Adds the calibrated spreads to {@link #report()}: in a {@code --calibrate} run the ones it
     * measured, stored in the history (replacing older ones of the same scenario and metric); otherwise
     * those the history holds.
     *
     * @return false when storing them failed (reading them failing only loses the SPREAD column)
     */
    private boolean calibrations(HistoryStore history, long runId, PrintWriter err) {
        if (!calibrate) {
            try {
                report = report.withCalibrations(history == null ? Calibrations.NONE : history.calibrations(),
                        false);
            } catch (RuntimeException e) {
                err.println("stillwater feature-bench: cannot read the calibrations in " + history.file() + ": "
                        + e.getMessage() + "; thresholds are shown without their spread");
            }
            return true;
        }
        List<Calibration> measured = FeatureCalibration.spreads(report.scenarios());
        boolean stored = false;
        if (history != null && runId >= 0) {
            try {
                history.saveCalibration(runId, measured);
                stored = true;
            } catch (RuntimeException e) {
                err.println("stillwater feature-bench: storing the calibrations in " + history.file() + " failed: "
                        + e.getMessage());
            }
        }
        report = report.withCalibrations(Calibrations.of(measured), true);
        if (!stored) {
            report = new FeatureReport(report.info(), report.scenarios(), report.maxMeasurements(),
                    report.scaleOption(), -1, report.calibrations(), true);
        }
        return stored;
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 60 ? (s / 60) + " min " + (s % 60) + " s"
                : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

}
