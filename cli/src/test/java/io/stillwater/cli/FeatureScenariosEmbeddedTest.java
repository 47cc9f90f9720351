package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.run.FeatureProgress;
import io.stillwater.bench.feature.run.FeatureRunner;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.FeatureSession;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.feature.scenarios.FeatureCatalog;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every feature scenario end to end on the embedded engine at a small scale (2, or the scenario's
 * fixed scale), this = the defaults, other = the interactive runtime off: nothing fails or is
 * skipped, every side is measured, and the interactive-runtime scenarios report the parameter's
 * effective value differing between the sides. Two measurements per side (one warm-up, one kept)
 * keep it within a few minutes.
 */
class FeatureScenariosEmbeddedTest {
    private static final String PARAMETER = "enable_compute_interactive_runtime";

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // hang guard: ~2 min on 2 idle cores, ~4 beside a build
    void everyScenarioRunsOnTheEmbeddedEngineOnBothSides() {
        var catalog = FeatureCatalog.all();
        FeatureSuite suite = FeatureSuite.load(catalog, new ScaleOption(2, false));
        SideParams other = SideParams.parse(PARAMETER + "=false");
        TargetLauncher thisSide = Targets.launcher(new TargetSpec.Embedded(), SideParams.NONE);
        TargetLauncher otherSide = Targets.launcher(new TargetSpec.Embedded(), other);
        FeatureSession session = new FeatureSession(
                new FeatureRunner(new MeasurementPolicy(1, 1, 2, 0.95, 0.10), FeatureProgress.NONE),
                new RerunPolicy(1), FeatureProgress.NONE);

        List<FeatureScenarioResult> results = session.run(suite, thisSide, otherSide, other.values().keySet());

        assertThat(results).extracting(FeatureScenarioResult::scenario)
                .containsExactlyElementsOf(catalog.stream().map(Class::getSimpleName).toList());
        for (int i = 0; i < results.size(); i++) {
            FeatureScenarioResult r = results.get(i);
            FeatureScenario s = suite.scenarios().get(i);
            String what = r.scenario() + " " + r.status() + ": " + r.reason();
            assertThat(r.status()).as(what).isIn(ScenarioStatus.PASSED, ScenarioStatus.REGRESSED);
            assertThat(r.scale()).as(what).isEqualTo(s.fixedScale() ? s.defaultScale() : 2.0);
            assertThat(r.runs()).as(what).hasSize(2).allSatisfy(o -> {
                assertThat(o).as(what).isInstanceOf(SideOutcome.Measured.class);
                MetricSamples wall = ((SideOutcome.Measured) o).run().samples().get(Metric.WALLCLOCK);
                assertThat(wall).as(what).isNotNull();
                assertThat(wall.kept()).as(what).isNotEmpty().allSatisfy(v -> assertThat(v).isPositive());
            });
            // the side parameter is read back on both sides of every scenario
            assertThat(r.otherParams()).as(what).containsEntry(PARAMETER, "off");
            if (r.groups().contains("InteractiveRuntime")) {
                assertThat(r.thisParams().get(PARAMETER)).as(what).isEqualTo("on")
                        .isNotEqualTo(r.otherParams().get(PARAMETER));
            }
        }
        assertThat(results.stream().filter(r -> r.groups().contains("InteractiveRuntime")).map(FeatureScenarioResult::scenario))
                .containsExactly("PeekDataflowJoin", "IntrospectionRead", "ManyIndexesIdle", "ManyIndexesRestart",
                        "ManyReexportsIdle");
        assertThat(Set.copyOf(results.stream().map(FeatureScenarioResult::status).toList()))
                .doesNotContain(ScenarioStatus.FAILED, ScenarioStatus.SKIPPED);
    }
}
