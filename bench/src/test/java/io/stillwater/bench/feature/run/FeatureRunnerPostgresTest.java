package io.stillwater.bench.feature.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.runner.Target;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.slt.PostgresCluster;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The feature runner and session against a real, throwaway PostgreSQL (15 where installed). */
class FeatureRunnerPostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    /** 2 warm-up, at most 5 in all: fewer kept samples than any 95% median interval needs, so the maximum stops it. */
    private static final MeasurementPolicy SMALL = new MeasurementPolicy(2, 1, 5, 0.95, 0.10);

    // ---- test-local scenarios (public, no-argument constructors, as the catalog's) ----

    /** Untimed before A (a 30 ms sleep), a timed count that must be right, untimed after B. */
    public static final class Counting extends FeatureScenario {
        @Override
        public double defaultScale() {
            return 1; // 10 rows
        }

        @Override
        public String init() {
            return "CREATE TABLE feat_counting (a int); INSERT INTO feat_counting SELECT g FROM generate_series(1, " + n() + ") g";
        }

        @Override
        public String before() {
            return "UPDATE feat_counting SET a = a";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT pg_sleep(0.03); SELECT pg_sleep(0.02) /* A */; "
                    + "SELECT count(*), max(a), NULL::int FROM feat_counting /* B */ /* expect: " + n() + " " + n() + " NULL */; "
                    + "SELECT 1");
        }

        @Override
        public Set<String> dependsOnParams() {
            return Set.of("work_mem", "no_such_parameter_anywhere");
        }

        @Override
        public String cleanup() {
            return "DROP TABLE IF EXISTS feat_counting";
        }
    }

    public static final class FailingStatement extends FeatureScenario {
        @Override
        public String init() {
            return "CREATE TABLE feat_failing (a int)";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT * FROM feat_failing /* A */; SELECT * FROM feat_no_such_table /* B */");
        }

        @Override
        public String cleanup() {
            return "DROP TABLE IF EXISTS feat_failing";
        }
    }

    public static final class WrongAnswer extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 41 + 1 /* A */ /* B */ /* expect: 43 */");
        }
    }

    public static final class NeedsArrangements extends FeatureScenario {
        @Override
        public Set<Capability> requires() {
            return Set.of(Capability.ARRANGEMENTS, Capability.INDEXES);
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    public static final class Restarting extends FeatureScenario {
        @Override
        public boolean restarts() {
            return true;
        }

        @Override
        public Body benchmark() {
            return Body.timed("restart; SELECT 1", ctx -> ctx.restart());
        }
    }

    /** No B marker: a definition error, found before any target is launched. */
    public static final class NoStopMarker extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */; SELECT 2");
        }
    }

    /** A timed action: its whole duration is the sample. */
    public static final class TimedSleep extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.timed("SELECT pg_sleep(0.02) on a new connection", ctx -> {
                try (Connection c = ctx.connect(); Statement st = c.createStatement()) {
                    st.execute("SELECT pg_sleep(0.02)");
                }
            });
        }
    }

    /** Sleeps as long as the side's session setting bench.delay says: regresses (or improves) by construction. */
    public static final class SideDelay extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT pg_sleep(current_setting('bench.delay')::float) /* A */ /* B */");
        }
    }

    // ---- helpers ----

    private static TargetLauncher pg(Set<Capability> caps) {
        return TargetLauncher.existing(Target.of(PG.jdbcUrl(), "postgres", caps));
    }

    /** The cluster, with {@code bench.delay} set in every session of this launcher. */
    private static TargetLauncher delayed(String seconds) {
        return TargetLauncher.existing(Target.of(PG.jdbcUrl() + "?options=-c%20bench.delay%3D" + seconds, "postgres",
                Set.of(Capability.INDEXES)));
    }

    private static <T extends FeatureScenario> T scaled(T s) {
        s.applyScale(ScaleOption.NONE);
        return s;
    }

    private static boolean tableExists(String name) throws Exception {
        try (Connection c = PG.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT count(*) FROM pg_tables WHERE tablename = '" + name + "'")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    /** Progress events, in order, as text. */
    private static final class Recorder implements FeatureProgress {
        final List<String> events = new ArrayList<>();

        @Override
        public void sideStarted(String scenario, String side, int run, int max) {
            events.add("started " + scenario + " " + side + " " + run + " max " + max);
        }

        @Override
        public void measuring(String scenario, String side, int run) {
            events.add("measuring " + scenario + " " + side + " " + run);
        }

        @Override
        public void measured(String scenario, String side, int run, int done, int max, double wallclockMs) {
            events.add("measured " + done + "/" + max);
        }

        @Override
        public void sideFinished(String scenario, SideOutcome outcome, StopReason stopOrNull) {
            events.add("finished " + outcome.getClass().getSimpleName() + " " + stopOrNull);
        }

        @Override
        public void scenarioFinished(FeatureScenarioResult result) {
            events.add("scenario " + result.scenario() + " " + result.status());
        }
    }

    // ---- the runner ----

    @Test
    void aMeasuredSideDiscardsWarmupKeepsTheRestAndTimesOnlyFromAToB() throws Exception {
        Recorder progress = new Recorder();
        SideOutcome o = new FeatureRunner(SMALL, progress).run(scaled(new Counting()), "this", 1, pg(Set.of()),
                Set.of("work_mem", "no_such_parameter_anywhere"));

        assertThat(o).isInstanceOf(SideOutcome.Measured.class);
        SideRun run = ((SideOutcome.Measured) o).run();
        assertThat(run.side()).isEqualTo("this");
        assertThat(run.runNumber()).isEqualTo(1);
        assertThat(run.stop()).isEqualTo(StopReason.MAX_MEASUREMENTS);
        // PostgreSQL exposes no memory relation: wallclock only, and the reader is told why
        assertThat(run.samples()).containsOnlyKeys(Metric.WALLCLOCK);
        MetricSamples wall = run.samples().get(Metric.WALLCLOCK);
        assertThat(wall.discarded()).hasSize(2);
        assertThat(wall.kept()).hasSize(3);
        // robust lower bound only: the span includes A's 20 ms sleep
        assertThat(wall.kept()).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(20.0));
        assertThat(run.messages()).anySatisfy(m -> assertThat(m).startsWith("memory not measured"));
        // no mz_system role on PostgreSQL: read as the ordinary user; an unknown name is "(absent)"
        assertThat(run.effectiveParams()).containsOnlyKeys("no_such_parameter_anywhere", "work_mem");
        assertThat(run.effectiveParams().get("no_such_parameter_anywhere")).isEqualTo(FeatureRunner.ABSENT);
        assertThat(run.effectiveParams().get("work_mem")).matches("\\d+[kMG]B");
        assertThat(run.elapsed()).isPositive();
        assertThat(tableExists("feat_counting")).as("cleanup ran").isFalse();
        assertThat(progress.events).containsExactly("started Counting this 1 max 5", "measuring Counting this 1",
                "measured 1/5", "measured 2/5", "measured 3/5", "measured 4/5", "measured 5/5",
                "finished Measured MAX_MEASUREMENTS");
    }

    @Test
    void aFailingStatementFailsTheSideNamingItAndItsSqlstateAndStillCleansUp() throws Exception {
        SideOutcome o = new FeatureRunner(SMALL, FeatureProgress.NONE).run(scaled(new FailingStatement()), "other", 2,
                pg(Set.of()), Set.of());
        assertThat(o).isInstanceOf(SideOutcome.Failed.class);
        SideOutcome.Failed f = (SideOutcome.Failed) o;
        assertThat(f.side()).isEqualTo("other");
        assertThat(f.runNumber()).isEqualTo(2);
        assertThat(f.error()).isEqualTo("benchmark: statement `SELECT * FROM feat_no_such_table /* B */` failed: "
                + "42P01: relation \"feat_no_such_table\" does not exist");
        assertThat(tableExists("feat_failing")).as("cleanup ran after the failure").isFalse();
    }

    @Test
    void aWrongAnswerFailsTheSide() {
        SideOutcome o = new FeatureRunner(SMALL, FeatureProgress.NONE).run(scaled(new WrongAnswer()), "this", 1,
                pg(Set.of()), Set.of());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Failed.class, f -> assertThat(f.error()).isEqualTo(
                "benchmark: wrong result from `SELECT 41 + 1 /* A */ /* B */ /* expect: 43 */`: expected \"43\", got \"42\""));
    }

    @Test
    void aMissingCapabilityOrARestartOnAUrlTargetSkips() {
        FeatureRunner runner = new FeatureRunner(SMALL, FeatureProgress.NONE);
        SideOutcome lacks = runner.run(scaled(new NeedsArrangements()), "this", 1, pg(Set.of(Capability.INDEXES)), Set.of());
        assertThat(lacks).isInstanceOfSatisfying(SideOutcome.Skipped.class,
                s -> assertThat(s.reason()).contains("lacks ARRANGEMENTS,").doesNotContain("INDEXES"));

        SideOutcome restart = runner.run(scaled(new Restarting()), "this", 1, pg(Set.of()), Set.of());
        assertThat(restart).isInstanceOfSatisfying(SideOutcome.Skipped.class,
                s -> assertThat(s.reason()).contains("url targets are shared and never restarted"));
    }

    @Test
    void aTimedActionIsTimedAsAWhole() {
        SideOutcome o = new FeatureRunner(new MeasurementPolicy(1, 1, 3, 0.95, 0.1), FeatureProgress.NONE)
                .run(scaled(new TimedSleep()), "this", 1, pg(Set.of()), Set.of());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Measured.class, m -> {
            MetricSamples wall = m.run().samples().get(Metric.WALLCLOCK);
            assertThat(wall.discarded()).hasSize(1);
            assertThat(wall.kept()).hasSize(2).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(20.0));
        });
    }

    @Test
    void aLauncherThatCannotStartFailsTheSide() {
        TargetLauncher broken = () -> {
            throw new IOException("no such build");
        };
        SideOutcome o = new FeatureRunner(SMALL, FeatureProgress.NONE).run(scaled(new WrongAnswer()), "other", 1, broken,
                Set.of());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Failed.class,
                f -> assertThat(f.error()).isEqualTo("starting the target: IOException: no such build"));
    }

    @Test
    void theSampleIsTheSpanBetweenTheTwoClockReadingsInMilliseconds() {
        // a clock that advances exactly 1.5 ms per reading: read once at A and once after B, so every
        // sample is 1.5 ms whatever the statements cost
        long[] now = {0};
        FeatureRunner runner = new FeatureRunner(SMALL, FeatureProgress.NONE, () -> now[0] += 1_500_000);
        SideOutcome o = runner.run(scaled(new Counting()), "this", 1, pg(Set.of()), Set.of());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Measured.class, m -> {
            MetricSamples wall = m.run().samples().get(Metric.WALLCLOCK);
            assertThat(wall.discarded()).containsExactly(1.5, 1.5);
            assertThat(wall.kept()).containsExactly(1.5, 1.5, 1.5);
        });
        assertThat(now[0]).isEqualTo(5 * 2 * 1_500_000L); // two readings per measurement, none elsewhere
    }

    @Test
    void aMalformedBenchmarkScriptFailsWithoutLaunchingAnything() {
        TargetLauncher never = () -> {
            throw new AssertionError("launched a target for a scenario whose script is malformed");
        };
        SideOutcome o = new FeatureRunner(SMALL, FeatureProgress.NONE).run(scaled(new NoStopMarker()), "this", 1, never,
                Set.of());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Failed.class,
                f -> assertThat(f.error()).startsWith("the scenario's scripts: ").contains("NoStopMarker"));
    }

    // ---- the session ----

    @Test
    void aRegressionIsReRunAndJudgedOnAllRunsWhileSkipsAndFailuresEndTheirScenarioOnly() {
        FeatureSuite suite = new FeatureSuite(List.of(scaled(new SideDelay()), scaled(new FailingStatement()),
                scaled(new NeedsArrangements())));
        Recorder progress = new Recorder();
        var session = new FeatureSession(new FeatureRunner(new MeasurementPolicy(1, 1, 3, 0.95, 0.1), progress),
                new RerunPolicy(3), progress);
        List<FeatureScenarioResult> results = session.run(suite, delayed("0.06"), delayed("0.005"), Set.of("bench.delay"));

        assertThat(results).extracting(FeatureScenarioResult::scenario)
                .containsExactly("SideDelay", "FailingStatement", "NeedsArrangements");
        FeatureScenarioResult slow = results.get(0);
        assertThat(slow.status()).isEqualTo(ScenarioStatus.REGRESSED);
        assertThat(slow.runsPerSide()).isEqualTo(3);
        assertThat(slow.runs()).extracting(r -> r.side() + r.runNumber())
                .containsExactly("this1", "other1", "this2", "other2", "this3", "other3");
        MetricVerdict wall = slow.verdicts().stream().filter(v -> v.metric() == Metric.WALLCLOCK).findFirst().orElseThrow();
        assertThat(wall.outcome()).isEqualTo(FeatureOutcome.REGRESSION);
        assertThat(wall.thisSamples()).isEqualTo(6); // 2 kept per run, 3 runs pooled
        assertThat(wall.otherSamples()).isEqualTo(6);
        assertThat(slow.reason()).contains("wallclock");
        // the parameter read back differs between the sides
        assertThat(slow.thisParams()).containsEntry("bench.delay", "0.06");
        assertThat(slow.otherParams()).containsEntry("bench.delay", "0.005");

        assertThat(results.get(1).status()).isEqualTo(ScenarioStatus.FAILED);
        assertThat(results.get(1).reason()).startsWith("this (run 1) failed: benchmark: statement `SELECT * FROM "
                + "feat_no_such_table /* B */` failed: 42P01");
        assertThat(results.get(2).status()).isEqualTo(ScenarioStatus.SKIPPED);
        assertThat(results.get(2).reason()).startsWith("this: ").contains("ARRANGEMENTS");
        assertThat(progress.events).filteredOn(e -> e.startsWith("scenario ")).containsExactly(
                "scenario SideDelay REGRESSED", "scenario FailingStatement FAILED", "scenario NeedsArrangements SKIPPED");
    }

    @Test
    void anImprovementIsNotReRun() {
        var session = new FeatureSession(new FeatureRunner(new MeasurementPolicy(1, 1, 3, 0.95, 0.1), FeatureProgress.NONE),
                new RerunPolicy(3), FeatureProgress.NONE);
        FeatureScenarioResult r = session.run(new FeatureSuite(List.of(scaled(new SideDelay()))), delayed("0.005"),
                delayed("0.06"), Set.of()).get(0);
        assertThat(r.status()).isEqualTo(ScenarioStatus.PASSED);
        assertThat(r.runsPerSide()).isEqualTo(1);
        assertThat(r.verdicts()).extracting(MetricVerdict::outcome).containsExactly(FeatureOutcome.IMPROVEMENT);
        assertThat(r.reason()).isEmpty();
        assertThat(r.thisParams()).isEmpty(); // nothing declared, nothing set
        assertThat(Map.copyOf(r.otherParams())).isEmpty();
    }
}
