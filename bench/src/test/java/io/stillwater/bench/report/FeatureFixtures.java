package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.run.SideRun;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.SideInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hand-built feature run covering every shape a report must handle: a regression re-run to two
 * runs per side (wallclock, heap, and RSS measured on one side only), an improvement whose name needs
 * escaping, a skipped and a failed scenario. Values are made up; only their shape matters.
 */
public final class FeatureFixtures {
    public static final String PARAM = "enable_compute_interactive_runtime";
    /** A scenario name with characters HTML and XML must escape. */
    public static final String ODD_NAME = "Filter<Index>&\"Co\"";

    private FeatureFixtures() {
    }

    public static RunInfo info() {
        return new RunInfo(Instant.parse("2026-12-02T15:00:00Z"), Instant.parse("2026-12-02T15:07:12.500Z"),
                RunMode.FEATURE, RunInfo.FRAMEWORK_VERSION, new SideInfo("dev", "embedded", Map.of()),
                new SideInfo("dev", "embedded", Map.of(PARAM, "false")), 2, null, RunInfo.hostFacts());
    }

    public static FeatureReport report() {
        return new FeatureReport(info(), scenarios(), 12, "-1", 7);
    }

    public static List<FeatureScenarioResult> scenarios() {
        return List.of(regressed(), improved(), skipped(), failed());
    }

    /** A side run: 2 warm-up and {@code kept.length} kept wallclock samples, heap likewise, RSS when asked. */
    public static SideOutcome measured(String side, int run, double base, boolean rss, String paramValue) {
        Map<Metric, MetricSamples> samples = new LinkedHashMap<>();
        samples.put(Metric.WALLCLOCK, new MetricSamples(Metric.WALLCLOCK, List.of(base * 3, base * 2),
                series(base, 6)));
        samples.put(Metric.MEMORY_HEAP, new MetricSamples(Metric.MEMORY_HEAP, List.of(150.0, 140.0),
                series(120, 6)));
        if (rss) {
            samples.put(Metric.MEMORY_RSS, new MetricSamples(Metric.MEMORY_RSS, List.of(610.0), series(600, 7)));
        }
        return new SideOutcome.Measured(new SideRun(side, run, samples,
                run == 1 ? StopReason.CONFIDENT : StopReason.MAX_MEASUREMENTS, Map.of(PARAM, paramValue),
                List.of(PARAM + " = " + paramValue + " (read back with SHOW)"), Duration.ofMillis(1500 + run)));
    }

    /** {@code n} distinct values around {@code base}. */
    static List<Double> series(double base, int n) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(base * (1 + 0.01 * ((i * 3) % n - n / 2.0)));
        }
        return out;
    }

    static FeatureScenarioResult regressed() {
        return new FeatureScenarioResult("PeekDataflowJoin", "1.0.0", List.of("InteractiveRuntime"), 4,
                List.of(measured("this", 1, 12.5, true, "on"), measured("other", 1, 10, false, "off"),
                        measured("this", 2, 12.5, true, "on"), measured("other", 2, 10, false, "off")),
                List.of(new MetricVerdict(Metric.WALLCLOCK, 12.5, 10, 12, 12, 0.10, FeatureOutcome.REGRESSION,
                                "25% slower"),
                        new MetricVerdict(Metric.MEMORY_HEAP, 120, 120, 12, 12, 0.20, FeatureOutcome.WITHIN,
                                "within 20%"),
                        new MetricVerdict(Metric.MEMORY_RSS, 600, Double.NaN, 14, 0, 0.20,
                                FeatureOutcome.NOT_COMPARED, "not measured on other")),
                ScenarioStatus.REGRESSED, "wallclock regressed", Map.of(PARAM, "on"), Map.of(PARAM, "off"));
    }

    static FeatureScenarioResult improved() {
        return new FeatureScenarioResult(ODD_NAME, "2.1.0", List.of("FastPath", "Filter"), 3,
                List.of(measured("this", 1, 4, false, "on"), measured("other", 1, 10, false, "off")),
                List.of(new MetricVerdict(Metric.WALLCLOCK, 4, 10, 6, 6, 0.10, FeatureOutcome.IMPROVEMENT,
                                "2.5 times faster"),
                        new MetricVerdict(Metric.MEMORY_HEAP, 120, 120, 6, 6, 0.20, FeatureOutcome.WITHIN,
                                "within 20%")),
                ScenarioStatus.PASSED, "", Map.of(PARAM, "on"), Map.of(PARAM, "off"));
    }

    static FeatureScenarioResult skipped() {
        return new FeatureScenarioResult("ManyIndexesRestart", "1.0.0", List.of("InteractiveRuntime"), 2,
                List.of(new SideOutcome.Skipped("this", 1, "url:postgresql://pg/db cannot be restarted")), List.of(),
                ScenarioStatus.SKIPPED, "url:postgresql://pg/db cannot be restarted", Map.of(), Map.of());
    }

    static FeatureScenarioResult failed() {
        return new FeatureScenarioResult("CreateIndex", "1.0.0", List.of(), 5,
                List.of(measured("this", 1, 30, false, "on"),
                        new SideOutcome.Failed("other", 1, "CREATE INDEX i ON t (f1) failed: out of memory "
                                + "(SQLSTATE 53200)", List.of("launched embedded"))),
                List.of(), ScenarioStatus.FAILED, "other run 1: CREATE INDEX i ON t (f1) failed: out of memory "
                        + "(SQLSTATE 53200)", Map.of(PARAM, "on"), Map.of());
    }

    /** Every sample in the fixture, discarded and kept. */
    public static long sampleCount(List<FeatureScenarioResult> scenarios) {
        return scenarios.stream().flatMap(s -> s.runs().stream())
                .filter(o -> o instanceof SideOutcome.Measured)
                .flatMap(o -> ((SideOutcome.Measured) o).run().samples().values().stream())
                .mapToLong(m -> m.discarded().size() + m.kept().size()).sum();
    }
}
