package io.stillwater.bench.feature.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The A/A session with a fake side runner, and the spread computed from per-run medians. */
class FeatureCalibrationTest {

    public static final class Plain extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    private static final TargetLauncher SIDE = () -> {
        throw new AssertionError("the fake runner never launches");
    };

    /** A measured side run whose kept wallclock samples are {@code wall} and heap samples {@code heap} (may be null). */
    private static SideOutcome measured(String side, int run, List<Double> wall, List<Double> heap) {
        Map<Metric, MetricSamples> samples = new LinkedHashMap<>();
        // a huge warm-up sample: it must not enter the median
        samples.put(Metric.WALLCLOCK, new MetricSamples(Metric.WALLCLOCK, List.of(1e9), wall));
        if (heap != null) {
            samples.put(Metric.MEMORY_HEAP, new MetricSamples(Metric.MEMORY_HEAP, List.of(), heap));
        }
        return new SideOutcome.Measured(new SideRun(side, run, samples, StopReason.CONFIDENT, Map.of(), List.of(),
                Duration.ofMillis(1)));
    }

    private static FeatureScenario scaled() {
        FeatureScenario s = new Plain();
        s.applyScale(new ScaleOption(1, false));
        return s;
    }

    private static FeatureScenarioResult result(List<SideOutcome> runs) {
        return new FeatureScenarioResult("Plain", "1.2.3", List.of(), 1, runs, List.of(), ScenarioStatus.PASSED, "",
                Map.of(), Map.of());
    }

    @Test
    void theSpreadIsMaxOverMinMinusOneOfThePerRunMediansOfKeptSamplesOverBothSides() {
        // per-run wallclock medians: 10, 12, 11, 8 (one run has an even count: mean of the middle two)
        FeatureScenarioResult r = result(List.of(
                measured("this", 1, List.of(9.0, 10.0, 100.0), List.of(50.0, 50.0)),
                measured("other", 1, List.of(12.0, 1.0, 30.0), List.of(55.0)),
                measured("this", 2, List.of(10.0, 12.0), null),
                measured("other", 2, List.of(8.0, 8.0, 7.0, 9.0, 8.0), null)));
        List<Calibration> spreads = FeatureCalibration.spreads(r);
        assertThat(spreads).extracting(Calibration::action).containsExactly("wallclock", "memory_heap");
        Calibration wall = spreads.get(0);
        assertThat(wall.scenario()).isEqualTo("Plain");
        assertThat(wall.scenarioVersion()).isEqualTo("1.2.3");
        assertThat(wall.stat()).isEqualTo(Stat.P50);
        assertThat(wall.runs()).isEqualTo(4);
        assertThat(wall.relativeSpread()).isCloseTo(12.0 / 8.0 - 1, Offset.offset(1e-12));
        assertThat(wall.absoluteSpread()).isCloseTo(4.0, Offset.offset(1e-12));
        Calibration heap = spreads.get(1);
        assertThat(heap.runs()).isEqualTo(2); // only the runs that measured it
        assertThat(heap.relativeSpread()).isCloseTo(0.1, Offset.offset(1e-12));
    }

    @Test
    void aMetricMeasuredInOneRunHasNoSpreadAndEqualZeroMediansHaveNone() {
        FeatureScenarioResult r = result(List.of(
                measured("this", 1, List.of(0.0, 0.0), List.of(5.0)),
                measured("other", 1, List.of(0.0), null),
                new SideOutcome.Failed("this", 2, "boom", List.of())));
        List<Calibration> spreads = FeatureCalibration.spreads(r);
        assertThat(spreads).singleElement().satisfies(c -> {
            assertThat(c.action()).isEqualTo("wallclock");
            assertThat(c.relativeSpread()).isZero();
            assertThat(c.absoluteSpread()).isZero();
        });
        assertThat(FeatureCalibration.spreads(result(List.of(measured("this", 1, List.of(0.0), null),
                measured("other", 1, List.of(2.0), null))))).singleElement()
                .satisfies(c -> assertThat(c.relativeSpread()).isNaN());
    }

    @Test
    void everyScenarioGetsEveryRunOnBothLabelsOfTheSameSideWithFreshInstances() {
        List<String> calls = new ArrayList<>();
        List<FeatureScenario> instances = new ArrayList<>();
        FeatureSession.SideRunner fake = (scenario, side, run, launcher, params) -> {
            assertThat(launcher).isSameAs(SIDE);
            calls.add(side + run);
            instances.add(scenario);
            // identical medians: no "regression", yet every run still happens
            return measured(side, run, List.of(run * 10.0), null);
        };
        FeatureScenario suiteOwn = scaled();
        List<FeatureScenarioResult> results = new FeatureCalibration(fake, 3, FeatureProgress.NONE)
                .run(new FeatureSuite(List.of(suiteOwn)), SIDE, Set.of());
        assertThat(calls).containsExactly("this1", "other1", "this2", "other2", "this3", "other3");
        assertThat(instances).doesNotContain(suiteOwn).doesNotHaveDuplicates();
        FeatureScenarioResult r = results.get(0);
        assertThat(r.runsPerSide()).isEqualTo(3);
        assertThat(r.runs()).hasSize(6);
        assertThat(r.verdicts()).singleElement().satisfies(v -> assertThat(v.thisSamples()).isEqualTo(3));
        assertThat(FeatureCalibration.spreads(results)).singleElement()
                .satisfies(c -> assertThat(c.relativeSpread()).isCloseTo(2.0, Offset.offset(1e-12)));
    }

    @Test
    void aFailedSideEndsTheScenarioAsFailedAndTheNextOneStillRuns() {
        FeatureSession.SideRunner fake = (scenario, side, run, launcher, params) -> run == 2 && side.equals("other")
                ? new SideOutcome.Failed(side, run, "connection refused", List.of())
                : measured(side, run, List.of(1.0), null);
        List<FeatureScenarioResult> results = new FeatureCalibration(fake, 2, FeatureProgress.NONE)
                .run(new FeatureSuite(List.of(scaled())), SIDE, Set.of());
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(ScenarioStatus.FAILED);
            assertThat(r.reason()).contains("other (run 2) failed: connection refused");
            assertThat(r.runs()).hasSize(4);
        });
    }

    @Test
    void oneRunPerSideIsRefused() {
        assertThatThrownBy(() -> new FeatureCalibration((s, side, n, l, p) -> null, 1, FeatureProgress.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2");
    }
}
