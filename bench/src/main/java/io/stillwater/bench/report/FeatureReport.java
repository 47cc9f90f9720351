package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.RunInfo;
import java.util.List;
import java.util.Optional;

/**
 * The one input of every feature-bench report format (terminal, JSON, JUnit, HTML): what ran and
 * what came of it. Formats only read it.
 *
 * @param info the run's metadata (mode {@link io.stillwater.bench.history.RunMode#FEATURE};
 *     {@code runsPerSide} is {@code --runs-per-scenario})
 * @param maxMeasurements {@code --max-measurements}
 * @param scaleOption {@code --scale} as written, or "" when not given
 * @param runId the history row id, or -1 when not recorded
 * @param calibrations the run-to-run spreads shown beside each threshold: from the history for a
 *     normal run, the ones this run measured for a calibration run ({@link Calibrations#NONE} when none)
 * @param calibrating whether this is an A/A calibration run ({@code --calibrate}): both sides are
 *     the same configuration, its spreads are recorded, and a "regression" is noise, not a failure
 */
public record FeatureReport(RunInfo info, List<FeatureScenarioResult> scenarios, int maxMeasurements,
        String scaleOption, long runId, Calibrations calibrations, boolean calibrating) {
    public FeatureReport {
        scenarios = List.copyOf(scenarios);
    }

    /** A normal run's report with no calibrations. */
    public FeatureReport(RunInfo info, List<FeatureScenarioResult> scenarios, int maxMeasurements,
            String scaleOption, long runId) {
        this(info, scenarios, maxMeasurements, scaleOption, runId, Calibrations.NONE, false);
    }

    public FeatureReport withCalibrations(Calibrations c, boolean calibrationRun) {
        return new FeatureReport(info, scenarios, maxMeasurements, scaleOption, runId, c, calibrationRun);
    }

    /**
     * Whether any scenario regressed or failed (the command then exits 1). In a calibration run only
     * a failure counts: a "regression" between two halves of one configuration is the noise measured.
     */
    public boolean failed() {
        return scenarios.stream().anyMatch(s -> s.status() == ScenarioStatus.FAILED
                || !calibrating && s.status() == ScenarioStatus.REGRESSED);
    }

    /**
     * The calibrated spread of a verdict's metric, if one was measured on the same scenario version (a
     * calibration of another version measured another workload, so it is not shown).
     */
    public Optional<Calibration> calibration(FeatureScenarioResult r, MetricVerdict v) {
        return calibrations.find(r.scenario(), v.metric().label(), FeatureCalibration.STAT)
                .filter(c -> c.scenarioVersion().equals(r.version()));
    }

    /**
     * True when the verdict's threshold would fire on noise alone: its margin is less than twice the
     * calibrated relative spread ({@link Calibration#tighterThanNoise} on the equivalent ratio).
     */
    public boolean tighterThanNoise(FeatureScenarioResult r, MetricVerdict v) {
        return calibration(r, v).map(c -> v.threshold() > 0 && !Double.isInfinite(v.threshold())
                ? c.tighterThanNoise(Threshold.ratio(1 + v.threshold()))
                : !Double.isNaN(c.relativeSpread()) && c.relativeSpread() > 0).orElse(false);
    }

    /** Whether any row's threshold is tighter than its calibrated noise (the formats then print the legend). */
    public boolean anyTighterThanNoise() {
        return scenarios.stream().anyMatch(r -> r.verdicts().stream().anyMatch(v -> tighterThanNoise(r, v)));
    }
}
