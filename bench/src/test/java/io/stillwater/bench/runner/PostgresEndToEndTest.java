package io.stillwater.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import io.stillwater.slt.PostgresCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tiny scenarios against a real, throwaway PostgreSQL (15 where installed). */
class PostgresEndToEndTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    private static final Duration TWO_SECONDS = Duration.ofSeconds(2);

    public static final class Tiny extends Scenario {
        public Tiny() {
            pool(4, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            setup("CREATE TABLE tiny (a int PRIMARY KEY, b int)",
                    "INSERT INTO tiny SELECT g, g * 2 FROM generate_series(1, 1000) g");
            systemParameters("postgres", "ALTER SYSTEM SET no_such_parameter_here = 1",
                    "ALTER SYSTEM SET work_mem = '8MB'");
            var count = reuseConn("SELECT count(*) FROM tiny");
            var lookup = pooled("SELECT b FROM tiny WHERE a = 42");
            var connect = standalone("SELECT 1");
            var missing = reuseConn("SELECT * FROM no_such_table");
            load(TWO_SECONDS,
                    closedLoop(count, 2),
                    openLoop(lookup, periodic(50)),
                    closedLoop(connect),
                    openLoop(missing, periodic(10)).reportRegressions(false));
            thresholds(lookup, CONTENDED);
            guarantee(count, Stat.QPS, 1);
            guarantee(lookup, Stat.QPS, 1_000_000); // cannot hold at 50/s offered
            systemParameters("postgres", "ALTER SYSTEM RESET work_mem");
            cleanup("DROP TABLE tiny");
        }

        @Override
        public String version() {
            return "1.1.0";
        }
    }

    public static final class FailingSetup extends Scenario {
        public FailingSetup() {
            setup("CREATE TABLE leftover (a int)", "SELECT * FROM no_such_table");
            load(TWO_SECONDS, closedLoop(reuseConn("SELECT 1")));
            cleanup("DROP TABLE leftover");
        }
    }

    public static final class FailingCleanup extends Scenario {
        public FailingCleanup() {
            load(Duration.ofMillis(500), openLoop(reuseConn("SELECT 1"), periodic(20)));
            cleanup("DROP TABLE no_such_table");
        }
    }

    public static final class BrokenPool extends Scenario {
        public BrokenPool() {
            pool(2, "SET no_such_setting = 1");
            load(Duration.ofMillis(500), openLoop(pooled("SELECT 1"), periodic(20)));
        }
    }

    @Test
    void failuresInLoadAndCleanupFailOnlyTheirScenarioAndKeepItsSamples() {
        Target target = Target.of(PG.jdbcUrl(), "postgres", Set.of());
        List<ScenarioResult> results = new Runner().run(target,
                List.of(ScenarioSource.of(BrokenPool.class), ScenarioSource.of(FailingCleanup.class)));
        assertThat(results.get(0).status()).isEqualTo(Status.FAILED);
        assertThat(results.get(0).failure()).startsWith("phase 1 (load): ")
                .contains("opening the connection pool").contains("42704");
        ScenarioResult r = results.get(1);
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.failure()).isEqualTo("phase 2 (cleanup): statement `DROP TABLE no_such_table`: "
                + "42P01: table \"no_such_table\" does not exist");
        assertThat(r.actions().get("SELECT 1 (reuse connection)").queries()).isEqualTo(10);
    }

    @Test
    void aTinyScenarioRunsEveryPhaseAndRecordsEverySample() throws Exception {
        Target target = Target.of(PG.jdbcUrl(), "postgres", Set.of());
        List<ScenarioResult> results = new Runner().run(target,
                List.of(ScenarioSource.of(FailingSetup.class), ScenarioSource.of(Tiny.class)));

        ScenarioResult failed = results.get(0);
        assertThat(failed.status()).isEqualTo(Status.FAILED);
        assertThat(failed.failure()).isEqualTo("phase 1 (setup): statement `SELECT * FROM no_such_table`: "
                + "42P01: relation \"no_such_table\" does not exist");
        assertThat(failed.actions()).isEmpty(); // the load phase was skipped

        ScenarioResult r = results.get(1);
        assertThat(r.failure()).isEmpty();
        assertThat(r.status()).isEqualTo(Status.COMPLETED);
        assertThat(r.version()).isEqualTo("1.1.0");
        assertThat(r.messages()).singleElement().asString()
                .startsWith("skipped `ALTER SYSTEM SET no_such_parameter_here = 1`")
                .contains("42704");
        assertThat(r.actions()).containsOnlyKeys("SELECT count(*) FROM tiny (reuse connection)",
                "SELECT b FROM tiny WHERE a = 42 (pooled)", "SELECT 1 (standalone)",
                "SELECT * FROM no_such_table (reuse connection)");

        ActionStatistics count = r.actions().get("SELECT count(*) FROM tiny (reuse connection)");
        assertThat(count.errors()).isZero();
        assertThat(count.queries()).isPositive();
        assertThat(count.qps()).isPositive();
        assertThat(count.p50()).isPositive().isLessThanOrEqualTo(count.max());
        assertThat(count.min()).isLessThanOrEqualTo(count.avg());

        ActionStatistics lookup = r.actions().get("SELECT b FROM tiny WHERE a = 42 (pooled)");
        assertThat(lookup.queries()).isEqualTo(100); // 50/s for 2 s, all finished before cleanup
        assertThat(lookup.errors()).isZero();

        ActionStatistics missing = r.actions().get("SELECT * FROM no_such_table (reuse connection)");
        assertThat(missing.queries()).isEqualTo(20);
        assertThat(missing.errorRate()).isEqualTo(1.0);
        assertThat(missing.errorCounts())
                .containsExactly(Map.entry("42P01: relation \"no_such_table\" does not exist", 20L));

        assertThat(r.actions().get("SELECT 1 (standalone)").queries()).isPositive();
        assertThat(r.timeSeries().get("SELECT b FROM tiny WHERE a = 42 (pooled)")).hasSize(100);
        assertThat(r.loadPhases()).singleElement().satisfies(p -> assertThat(p.loops()).hasSize(4));

        assertThat(r.violations()).singleElement().satisfies(v -> {
            assertThat(v.action()).isEqualTo("SELECT b FROM tiny WHERE a = 42 (pooled)");
            assertThat(v.guarantee().stat()).isEqualTo(Stat.QPS);
        });
        assertThat(r.passed()).isFalse();

        try (Connection c = PG.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT count(*) FROM pg_class WHERE relname IN ('tiny', 'leftover')")) {
            rs.next();
            assertThat(rs.getInt(1)).as("cleanup ran, also after the failed setup").isZero();
        }
    }

    public static final class Quick extends Scenario {
        public Quick() {
            var read = reuseConn("SELECT 1");
            load(Duration.ofSeconds(10), closedLoop(read));
            thresholds(read, Overrides.NONE.with(Stat.P99, ratio(1.5)));
        }
    }

    @Test
    void aComparisonInterleavesRunsAndGatesEachSidesMedian() {
        Target target = Target.of(PG.jdbcUrl(), "postgres", Set.of());
        List<String> phases = new ArrayList<>();
        List<String> ended = new ArrayList<>();
        LoadPhaseListener listener = (scenario, phase, duration) -> {
            phases.add(scenario + " " + phase + " " + duration);
            return () -> ended.add(scenario + " " + phase);
        };
        ScenarioComparison c = new Runner(Duration.ofMillis(300), listener)
                .compare(target, target, ScenarioSource.of(Quick.class), 3);
        assertThat(c.problems()).isEmpty();
        // the progress-bar hook: every run's load phase, with the overridden duration, each ended
        assertThat(phases).hasSize(6).containsOnly("Quick 1 PT0.3S");
        assertThat(ended).hasSize(6).containsOnly("Quick 1");
        assertThat(c.thisRuns()).hasSize(3).allSatisfy(r -> assertThat(r.status()).isEqualTo(Status.COMPLETED));
        assertThat(c.otherRuns()).hasSize(3);
        assertThat(c.verdicts()).hasSize(Stat.values().length)
                .allSatisfy(v -> assertThat(v.action()).isEqualTo("SELECT 1 (reuse connection)"));
        StatVerdict p99 = c.verdicts().stream().filter(v -> v.stat() == Stat.P99).findFirst().orElseThrow();
        assertThat(p99.threshold()).isEqualTo(Threshold.ratio(1.5));
        assertThat(p99.outcome()).isIn(Outcome.OK, Outcome.REGRESSION);
        double[] thisP99 = c.thisRuns().stream().mapToDouble(r -> r.actions().values().iterator().next().p99())
                .toArray();
        assertThat(p99.thisValue()).isEqualTo(Verdicts.median(thisP99));
        StatVerdict max = c.verdicts().stream().filter(v -> v.stat() == Stat.MAX).findFirst().orElseThrow();
        assertThat(max.outcome()).isEqualTo(Outcome.UNGATED);
    }
}
