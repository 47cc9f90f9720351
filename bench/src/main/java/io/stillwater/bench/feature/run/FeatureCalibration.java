package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.MedianInterval;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.stats.Stat;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The A/A run of the feature benchmark ({@code feature-bench --calibrate}): every scenario runs
 * {@code runsPerSide} times on each "side", both sides being the same target and parameters (the
 * runs are labelled "this" and "other" so that reports and history treat them like any run), with no
 * early stop: the point is to measure the run-to-run spread, so every scenario gets every run, not
 * only those that look regressed. Runs alternate (this 1, other 1, this 2, ...) as in
 * {@link FeatureSession#run}; a scenario whose side is skipped or fails ends there, as there.
 *
 * <p>The spread ({@link #spreads}) is taken over the per-run medians of kept samples, all runs of
 * both sides together: relative = max / min - 1, absolute = max - min. It is stored as a
 * {@link Calibration} whose {@code action} is the metric's label ("wallclock", "memory_heap",
 * "memory_rss") and whose {@code stat} is {@link Stat#P50}: the feature bench compares medians, and
 * the median is the 50th percentile, so the parallel bench's stat vocabulary fits without a new
 * kind. Everything runs on the calling thread.
 */
public final class FeatureCalibration {
    /** The stat a feature-bench calibration is stored under: the median, which its verdicts compare. */
    public static final Stat STAT = Stat.P50;

    private final FeatureSession.SideRunner runner;
    private final int runsPerSide;
    private final FeatureProgress progress;

    /** @param runsPerSide runs per side for every scenario, at least 2 (one run has no spread) */
    public FeatureCalibration(FeatureRunner runner, int runsPerSide, FeatureProgress progress) {
        this(runner::run, runsPerSide, progress);
    }

    FeatureCalibration(FeatureSession.SideRunner runner, int runsPerSide, FeatureProgress progress) {
        if (runsPerSide < 2) {
            throw new IllegalArgumentException("a calibration needs at least 2 runs per side, got " + runsPerSide);
        }
        this.runner = runner;
        this.runsPerSide = runsPerSide;
        this.progress = progress;
    }

    /**
     * Runs every scenario of the suite A/A on {@code side}.
     *
     * @param sideParamNames the names the side's {@code --this-params} sets (read back on every run)
     * @return per scenario: all runs, verdicts of the A/A comparison (pooled, as in a normal run) and status
     */
    public List<FeatureScenarioResult> run(FeatureSuite suite, TargetLauncher side, Set<String> sideParamNames) {
        return FeatureSession.eachScenario(suite, progress, s -> runScenario(s, side, sideParamNames));
    }

    private FeatureScenarioResult runScenario(FeatureScenario scenario, TargetLauncher side,
            Set<String> sideParamNames) {
        Set<String> params = new TreeSet<>(scenario.dependsOnParams());
        params.addAll(sideParamNames);
        List<String> groups = FeatureSuite.groupPath(scenario.getClass());
        List<SideOutcome> runs = new ArrayList<>();
        for (int n = 1; n <= runsPerSide; n++) {
            for (String label : List.of("this", "other")) {
                SideOutcome o = runner.run(FeatureSession.fresh(scenario), label, n, side, params);
                runs.add(o);
                if (!(o instanceof SideOutcome.Measured)) {
                    return ended(scenario, groups, runs);
                }
            }
        }
        List<MetricVerdict> verdicts = FeatureSession.verdicts(scenario, runs);
        List<MetricVerdict> noisy = verdicts.stream().filter(v -> v.outcome() == FeatureOutcome.REGRESSION).toList();
        String reason = noisy.isEmpty() ? "" : noisy.stream().map(v -> v.metric().label() + ": " + v.text())
                .collect(Collectors.joining("; ")) + " between two halves of the same configuration (A/A: noise)";
        return new FeatureScenarioResult(scenario.name(), scenario.version(), groups, scenario.scale(), runs, verdicts,
                noisy.isEmpty() ? ScenarioStatus.PASSED : ScenarioStatus.REGRESSED, reason, params(runs, "this"),
                params(runs, "other"));
    }

    /** A side was skipped or failed: the scenario's status is that, with the side's reason (as in a normal run). */
    private static FeatureScenarioResult ended(FeatureScenario scenario, List<String> groups, List<SideOutcome> runs) {
        SideOutcome last = runs.get(runs.size() - 1);
        ScenarioStatus status;
        String reason;
        switch (last) {
            case SideOutcome.Skipped s -> {
                status = ScenarioStatus.SKIPPED;
                reason = s.side() + ": " + s.reason();
            }
            case SideOutcome.Failed f -> {
                status = ScenarioStatus.FAILED;
                reason = f.side() + " (run " + f.runNumber() + ") failed: " + f.error();
            }
            case SideOutcome.Measured m -> throw new IllegalStateException("ended() on a measured side");
        }
        return new FeatureScenarioResult(scenario.name(), scenario.version(), groups, scenario.scale(), runs,
                List.of(), status, reason, params(runs, "this"), params(runs, "other"));
    }

    private static Map<String, String> params(List<SideOutcome> runs, String side) {
        for (SideOutcome o : runs) {
            if (o instanceof SideOutcome.Measured m && m.side().equals(side)) {
                return m.run().effectiveParams();
            }
        }
        return Map.of();
    }

    /** The spreads of every scenario of an A/A run, in order; see {@link #spreads(FeatureScenarioResult)}. */
    public static List<Calibration> spreads(List<FeatureScenarioResult> results) {
        List<Calibration> out = new ArrayList<>();
        results.forEach(r -> out.addAll(spreads(r)));
        return out;
    }

    /**
     * Per metric, the spread of the per-run medians of kept samples over every measured run of the
     * scenario, both sides together (they are the same configuration). A metric needs medians from at
     * least two runs to have a spread; relative spread is NaN when the smallest median is &lt;= 0 and
     * the medians differ (0 when all are equal).
     */
    public static List<Calibration> spreads(FeatureScenarioResult r) {
        Map<Metric, List<Double>> medians = new EnumMap<>(Metric.class);
        for (SideOutcome o : r.runs()) {
            if (o instanceof SideOutcome.Measured m) {
                for (MetricSamples s : m.run().samples().values()) {
                    List<Double> kept = s.kept().stream().filter(v -> !v.isNaN()).toList();
                    if (!kept.isEmpty()) {
                        double median = MedianInterval.median(kept);
                        if (!Double.isNaN(median)) {
                            medians.computeIfAbsent(s.metric(), k -> new ArrayList<>()).add(median);
                        }
                    }
                }
            }
        }
        List<Calibration> out = new ArrayList<>();
        for (Map.Entry<Metric, List<Double>> e : medians.entrySet()) {
            List<Double> values = e.getValue();
            if (values.size() < 2) {
                continue;
            }
            double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            double relative = min > 0 ? max / min - 1 : (max == min ? 0 : Double.NaN);
            out.add(new Calibration(r.scenario(), r.version(), e.getKey().label(), STAT, relative, max - min,
                    values.size()));
        }
        return out;
    }
}
