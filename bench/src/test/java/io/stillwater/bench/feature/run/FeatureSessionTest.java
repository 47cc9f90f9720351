package io.stillwater.bench.feature.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.runner.TargetLauncher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The session's bookkeeping with a fake side runner: instances, order, pooling, statuses. */
class FeatureSessionTest {

    public static final class Plain extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    /** A group, so the result carries a group path. */
    public abstract static class Group extends FeatureScenario {
    }

    public static final class Fixed extends Group {
        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public double defaultScale() {
            return 3;
        }

        @Override
        public Set<String> dependsOnParams() {
            return Set.of("p");
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 2 /* A */ /* B */");
        }
    }

    private static final TargetLauncher THIS = () -> {
        throw new AssertionError("the fake runner never launches");
    };
    private static final TargetLauncher OTHER = () -> {
        throw new AssertionError("the fake runner never launches");
    };

    /** Answers each side run from a function of (side, run), recording what it was given. */
    private static final class FakeRunner implements FeatureSession.SideRunner {
        final List<FeatureScenario> instances = new ArrayList<>();
        final List<String> calls = new ArrayList<>();
        final List<Set<String>> params = new ArrayList<>();
        final BiFunction<String, Integer, Object> answer;

        FakeRunner(BiFunction<String, Integer, Object> answer) {
            this.answer = answer;
        }

        @Override
        public SideOutcome run(FeatureScenario scenario, String side, int runNumber, TargetLauncher launcher,
                Set<String> p) {
            instances.add(scenario);
            calls.add(scenario.name() + " " + side + runNumber + " scale " + scenario.scale());
            params.add(p);
            assertThat(launcher).isSameAs(side.equals("this") ? THIS : OTHER);
            Object a = answer.apply(side, runNumber);
            if (a instanceof RuntimeException e) {
                throw e;
            }
            if (a instanceof SideOutcome o) {
                return o;
            }
            double ms = (Double) a;
            return new SideOutcome.Measured(new SideRun(side, runNumber,
                    Map.of(Metric.WALLCLOCK, new MetricSamples(Metric.WALLCLOCK, List.of(999.0), List.of(ms, ms, ms))),
                    StopReason.MAX_MEASUREMENTS, Map.of("p", side + runNumber), List.of(), Duration.ofMillis(1)));
        }
    }

    private static FeatureScenario scaled(FeatureScenario s, ScaleOption scale) {
        s.applyScale(scale);
        return s;
    }

    @Test
    void everySideRunGetsAFreshInstanceAtTheSameScaleAndSidesAlternate() {
        // this regresses in run 1 (200 vs 100) and looks fine afterwards: still run to the end and pooled
        FakeRunner fake = new FakeRunner((side, run) -> side.equals("this") ? (run == 1 ? 200.0 : 100.0) : 100.0);
        FeatureScenario plain = scaled(new Plain(), new ScaleOption(2.5, false));
        FeatureScenario fixed = scaled(new Fixed(), new ScaleOption(1, false)); // FIXED_SCALE: stays 3
        List<FeatureScenarioResult> results = new FeatureSession(fake, new RerunPolicy(3), FeatureProgress.NONE)
                .run(new FeatureSuite(List.of(plain, fixed)), THIS, OTHER, Set.of("q"));

        assertThat(fake.calls).containsExactly("Plain this1 scale 2.5", "Plain other1 scale 2.5", "Plain this2 scale 2.5",
                "Plain other2 scale 2.5", "Plain this3 scale 2.5", "Plain other3 scale 2.5",
                "Fixed this1 scale 3.0", "Fixed other1 scale 3.0", "Fixed this2 scale 3.0", "Fixed other2 scale 3.0",
                "Fixed this3 scale 3.0", "Fixed other3 scale 3.0");
        Map<FeatureScenario, Boolean> distinct = new IdentityHashMap<>();
        fake.instances.forEach(i -> distinct.put(i, true));
        distinct.put(plain, true);
        distinct.put(fixed, true);
        assertThat(distinct).hasSize(fake.instances.size() + 2); // none reused, the suite's own never run
        assertThat(fake.params.get(0)).containsExactly("q");
        assertThat(fake.params.get(6)).containsExactlyInAnyOrder("p", "q");

        FeatureScenarioResult r = results.get(0);
        assertThat(r.runsPerSide()).isEqualTo(3);
        assertThat(r.scale()).isEqualTo(2.5);
        // pooled: this = 200,200,200,100,100,100,100,100,100 -> median 100: within, not best-of-N
        assertThat(r.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.thisSamples()).isEqualTo(9);
            assertThat(v.otherSamples()).isEqualTo(9);
            assertThat(v.thisMedian()).isEqualTo(100.0);
        });
        assertThat(r.status()).isEqualTo(ScenarioStatus.PASSED);
        assertThat(r.thisParams()).containsEntry("p", "this1");
        assertThat(r.otherParams()).containsEntry("p", "other1");
        assertThat(results.get(1).groups()).containsExactly("Group");
        assertThat(results.get(1).scale()).isEqualTo(3.0);
    }

    @Test
    void aRegressionThatPersistsIsRegressedOnThePooledSamples() {
        FakeRunner fake = new FakeRunner((side, run) -> side.equals("this") ? 150.0 : 100.0);
        FeatureScenarioResult r = new FeatureSession(fake, new RerunPolicy(2), FeatureProgress.NONE)
                .run(new FeatureSuite(List.of(scaled(new Plain(), ScaleOption.NONE))), THIS, OTHER, Set.of()).get(0);
        assertThat(r.status()).isEqualTo(ScenarioStatus.REGRESSED);
        assertThat(r.runsPerSide()).isEqualTo(2);
        assertThat(r.verdicts()).singleElement().satisfies(v -> assertThat(v.thisSamples()).isEqualTo(6));
        assertThat(r.reason()).startsWith("wallclock: ").endsWith("(median of 2 runs per side)");
    }

    @Test
    void aFailureOrSkipEndsTheScenarioAndAnEscapingExceptionNeverStopsTheSession() {
        FakeRunner fake = new FakeRunner((side, run) -> side.equals("other")
                ? new SideOutcome.Failed("other", run, "init: statement `x` failed: 42P01: nope", List.of())
                : 100.0);
        FakeRunner throwing = new FakeRunner((side, run) -> new IllegalStateException("boom"));
        FakeRunner skipping = new FakeRunner((side, run) -> new SideOutcome.Skipped(side, run, "lacks CLUSTERS"));
        FeatureSuite one = new FeatureSuite(List.of(scaled(new Plain(), ScaleOption.NONE)));

        FeatureScenarioResult failed = new FeatureSession(fake, new RerunPolicy(3), FeatureProgress.NONE)
                .run(one, THIS, OTHER, Set.of()).get(0);
        assertThat(failed.status()).isEqualTo(ScenarioStatus.FAILED);
        assertThat(failed.reason()).isEqualTo("other (run 1) failed: init: statement `x` failed: 42P01: nope");
        assertThat(failed.verdicts()).isEmpty();
        assertThat(failed.thisParams()).containsEntry("p", "this1");

        FeatureScenarioResult skipped = new FeatureSession(skipping, new RerunPolicy(3), FeatureProgress.NONE)
                .run(one, THIS, OTHER, Set.of()).get(0);
        assertThat(skipped.status()).isEqualTo(ScenarioStatus.SKIPPED);
        assertThat(skipped.reason()).isEqualTo("this: lacks CLUSTERS");
        assertThat(skipping.calls).hasSize(1);

        List<FeatureScenarioResult> crashed = new FeatureSession(throwing, new RerunPolicy(3), FeatureProgress.NONE)
                .run(new FeatureSuite(List.of(scaled(new Plain(), ScaleOption.NONE), scaled(new Fixed(), ScaleOption.NONE))),
                        THIS, OTHER, Set.of());
        assertThat(crashed).extracting(FeatureScenarioResult::status).containsExactly(ScenarioStatus.FAILED,
                ScenarioStatus.FAILED);
        assertThat(crashed.get(0).reason()).contains("boom");
        assertThat(throwing.calls).hasSize(2); // the second scenario still ran
    }

    /** A stored this-side run of {@code ms} wallclock, as the history gives it back. */
    private static SideRun storedRun(int run, double ms) {
        return new SideRun("this", run, Map.of(Metric.WALLCLOCK, new MetricSamples(Metric.WALLCLOCK, List.of(500.0),
                List.of(ms, ms, ms, ms))), StopReason.CONFIDENT, Map.of("p", "stored" + run), List.of("stored"),
                Duration.ofMillis(2));
    }

    private static StoredFeatureScenario stored(String name, String version, double scale, SideRun... runs) {
        return new StoredFeatureScenario(7, "base", name, version, scale, ScenarioStatus.PASSED, List.of(runs));
    }

    @Test
    void againstHistoryRunsThisSideOnlyAndPoolsItAgainstTheStoredThisSideSamples() {
        // this regresses in run 1 (150 vs stored 100) and not after: re-runs of this only, judged pooled
        FakeRunner fake = new FakeRunner((side, run) -> run == 1 ? 150.0 : 100.0);
        FeatureScenario plain = scaled(new Plain(), new ScaleOption(2.5, false));
        Map<String, StoredFeatureScenario> history = Map.of("Plain",
                stored("Plain", plain.version(), 2.5, storedRun(1, 100), storedRun(2, 100)));
        FeatureScenarioResult r = new FeatureSession(fake, new RerunPolicy(3), FeatureProgress.NONE)
                .runAgainstHistory(new FeatureSuite(List.of(plain)), THIS, "base", history, Set.of("q")).get(0);

        assertThat(fake.calls).containsExactly("Plain this1 scale 2.5", "Plain this2 scale 2.5", "Plain this3 scale 2.5");
        assertThat(fake.params).allSatisfy(p -> assertThat(p).containsExactly("q"));
        assertThat(r.runsPerSide()).isEqualTo(3);
        assertThat(r.runs()).extracting(o -> o.side() + o.runNumber())
                .containsExactly("this1", "other1", "other2", "this2", "this3");
        // pooled: this = 150 x3, 100 x6 -> 100; other = the 8 kept stored samples, never the discarded 500
        assertThat(r.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.thisSamples()).isEqualTo(9);
            assertThat(v.otherSamples()).isEqualTo(8);
            assertThat(v.thisMedian()).isEqualTo(100.0);
            assertThat(v.otherMedian()).isEqualTo(100.0);
        });
        assertThat(r.status()).isEqualTo(ScenarioStatus.PASSED);
        assertThat(r.otherParams()).containsEntry("p", "stored1");
        assertThat(r.thisParams()).containsEntry("p", "this1");
    }

    @Test
    void againstHistoryARegressionIsJudgedOnAllRunsOfThisAgainstTheStoredOnes() {
        FakeRunner fake = new FakeRunner((side, run) -> 150.0);
        FeatureScenario plain = scaled(new Plain(), ScaleOption.NONE);
        FeatureScenarioResult r = new FeatureSession(fake, new RerunPolicy(2), FeatureProgress.NONE)
                .runAgainstHistory(new FeatureSuite(List.of(plain)), THIS, "base",
                        Map.of("Plain", stored("Plain", plain.version(), plain.scale(), storedRun(1, 100))), Set.of())
                .get(0);
        assertThat(r.status()).isEqualTo(ScenarioStatus.REGRESSED);
        assertThat(fake.calls).hasSize(2);
        assertThat(r.reason()).startsWith("wallclock: 50% slower")
                .endsWith("(median of 2 runs of this, 1 stored run of base)");
    }

    @Test
    void againstHistoryNeverComparesAcrossVersionsOrScalesOrWithoutStoredSamples() {
        FakeRunner fake = new FakeRunner((side, run) -> 100.0);
        FeatureScenario plain = scaled(new Plain(), ScaleOption.NONE);
        FeatureScenario fixed = scaled(new Fixed(), ScaleOption.NONE);
        FeatureSuite suite = new FeatureSuite(List.of(plain, fixed));
        FeatureSession session = new FeatureSession(fake, new RerunPolicy(3), FeatureProgress.NONE);

        List<FeatureScenarioResult> missing = session.runAgainstHistory(suite, THIS, "base",
                Map.of("Plain", stored("Plain", "0.9.0", plain.scale(), storedRun(1, 100))), Set.of());
        assertThat(missing).extracting(FeatureScenarioResult::status)
                .containsExactly(ScenarioStatus.SKIPPED, ScenarioStatus.SKIPPED);
        assertThat(missing.get(0).reason()).isEqualTo("base's run 7 has version 0.9.0 of it, this build has "
                + plain.version() + "; versions are never compared");
        assertThat(missing.get(1).reason()).isEqualTo("not in the stored run of base; nothing to compare with");

        List<FeatureScenarioResult> other = session.runAgainstHistory(suite, THIS, "base", Map.of(
                "Plain", stored("Plain", plain.version(), plain.scale() + 1, storedRun(1, 100)),
                "Fixed", stored("Fixed", fixed.version(), 3)), Set.of());
        assertThat(other.get(0).reason()).isEqualTo("base's run 7 ran it at scale " + (long) (plain.scale() + 1)
                + ", this run at " + (long) plain.scale() + "; scales are never compared (pass --scale "
                + (long) (plain.scale() + 1) + ")");
        assertThat(other.get(1).reason()).isEqualTo("base's run 7 has no measurement of it (it was passed there)");
        assertThat(other).allSatisfy(r -> assertThat(r.verdicts()).isEmpty());
        assertThat(fake.calls).isEmpty(); // nothing unusable is measured
    }

    @Test
    void againstHistoryAThisSideFailureEndsTheScenario() {
        FakeRunner failing = new FakeRunner((side, run) -> new SideOutcome.Failed(side, run, "boom", List.of()));
        FeatureScenario plain = scaled(new Plain(), ScaleOption.NONE);
        FeatureScenarioResult r = new FeatureSession(failing, new RerunPolicy(3), FeatureProgress.NONE)
                .runAgainstHistory(new FeatureSuite(List.of(plain)), THIS, "base",
                        Map.of("Plain", stored("Plain", plain.version(), plain.scale(), storedRun(1, 100))), Set.of())
                .get(0);
        assertThat(r.status()).isEqualTo(ScenarioStatus.FAILED);
        assertThat(r.reason()).isEqualTo("this (run 1) failed: boom");
    }
}
