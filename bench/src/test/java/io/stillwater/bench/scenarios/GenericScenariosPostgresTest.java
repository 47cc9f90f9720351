package io.stillwater.bench.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.cli.BenchRun;
import io.stillwater.bench.cli.BenchSession;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.cli.SideConfig;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.history.BenchFixtures;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.targets.CapabilityProbe;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.slt.PostgresCluster;
import io.stillwater.targets.TargetSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The generic scenarios against a real, throwaway PostgreSQL (15 where installed), through a url target. */
class GenericScenariosPostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    private static final Duration TWO_SECONDS = Duration.ofSeconds(2);

    /** Answers are checked: a wrong one is a failed query under "wrong result", never a success. */
    public static final class WrongAnswer extends Scenario {
        public WrongAnswer() {
            var q = reuseConn("SELECT 2").expecting(ExpectedRows.row("1"));
            load(TWO_SECONDS, closedLoop(q));
            guarantee(q, Stat.ERROR_RATE, 0);
        }
    }

    private static TargetSpec pg() {
        return TargetSpec.parse("url:" + PG.url());
    }

    @Test
    void probedCapabilitiesOfPlainPostgres() throws Exception {
        var u = (TargetSpec.Url) pg();
        assertThat(CapabilityProbe.probe(u.jdbcUrl(), u.user(), u.password())).containsExactly(Capability.INDEXES);
    }

    @Test
    void genericScenariosRunAndGatedOnesAreSkippedWithAReason() {
        // every known scenario (the registry): the interactive-runtime ones must be skipped with the reason
        List<ScenarioSource> scenarios = Suite.all();
        SideConfig side = new SideConfig(pg(), SideParams.NONE);
        var options = new BenchSession.Options(RunMode.COMPARE, side, side, 1, TWO_SECONDS, scenarios,
                Shard.ALL, "");
        StringWriter progress = new StringWriter();
        BenchRun run = new BenchSession(options, new PrintWriter(progress), null).execute();

        assertThat(run.comparisons()).extracting(ScenarioComparison::scenario).containsExactly(
                "TemporaryDataflowFloor", "IntrospectionUnderHydration", "FreshnessUnderPeekDataflows",
                "PeekIsolationUnderExpensivePeeks", "FreshnessUnderPeekWalks", "ReadIsolationUnderHydration",
                "MaintenanceUnderPeekSaturation",
                "Read", "PoolRead", "ConnectRead", "InsertsSelects", "OpenIndexedSelects", "PointLookupThroughput",
                "IngestOverload", "JoinGroupByIngest");
        for (ScenarioComparison c : run.comparisons().subList(7, 13)) {
            assertThat(c.thisRuns()).as(c.scenario()).singleElement()
                    .satisfies(r -> assertThat(r.status()).as(r.failure()).isEqualTo(Status.COMPLETED));
            assertThat(c.otherRuns()).as(c.scenario()).singleElement()
                    .satisfies(r -> assertThat(r.status()).as(r.failure()).isEqualTo(Status.COMPLETED));
            // every answer was checked and right: no errors on either side
            for (ScenarioResult r : List.of(c.thisRuns().getFirst(), c.otherRuns().getFirst())) {
                r.actions().forEach((action, s) -> {
                    assertThat(s.queries()).as(action).isPositive();
                    assertThat(s.errorCounts()).as(action).isEmpty();
                });
            }
            assertThat(c.verdicts()).as(c.scenario()).isNotEmpty()
                    .filteredOn(v -> v.stat() == Stat.QPS).allSatisfy(v -> assertThat(v.outcome())
                            .isIn(Outcome.OK, Outcome.REGRESSION));
        }
        for (ScenarioComparison gated : run.comparisons().subList(0, 7)) {
            for (List<ScenarioResult> runs : List.of(gated.thisRuns(), gated.otherRuns())) {
                assertThat(runs).as(gated.scenario()).singleElement().satisfies(r -> {
                    assertThat(r.status()).isEqualTo(Status.SKIPPED);
                    assertThat(r.failure()).startsWith("target lacks [").contains("CLUSTERS")
                            .contains("INTERACTIVE_RUNTIME");
                    assertThat(r.actions()).isEmpty();
                });
            }
            assertThat(gated.verdicts()).as(gated.scenario()).isEmpty();
        }
        // IngestOverload and JoinGroupByIngest need indexes that are arrangements (an indexed view):
        // skipped on PostgreSQL too.
        for (ScenarioComparison ingest : run.comparisons().subList(13, 15)) {
            assertThat(ingest.thisRuns()).as(ingest.scenario()).singleElement().satisfies(r -> {
                assertThat(r.status()).isEqualTo(Status.SKIPPED);
                assertThat(r.failure()).startsWith("target lacks [").contains("ARRANGEMENTS");
            });
        }
        assertThat(run.comparisons()).allSatisfy(c -> assertThat(c.thisRuns().getFirst().status()).isNotEqualTo(Status.FAILED));
        assertThat(progress.toString()).contains("[7/15] MaintenanceUnderPeekSaturation").contains("[13/15] PointLookupThroughput")
                .contains("[14/15] IngestOverload").contains("[15/15] JoinGroupByIngest");
    }

    @Test
    void sideParamsThatCannotBeAppliedSkipTheScenarioInsteadOfBeingIgnored() {
        var launcher = Targets.launcher(pg(), SideParams.parse("enable_compute_interactive_runtime=false"));
        ScenarioResult r = new Runner(TWO_SECONDS).run(launcher, ScenarioSource.of(Read.class));
        assertThat(r.status()).isEqualTo(Status.SKIPPED);
        assertThat(r.failure()).contains("cannot apply the side parameters enable_compute_interactive_runtime=false")
                .contains("ALTER SYSTEM");
        assertThat(r.actions()).isEmpty();
    }

    @Test
    void aWrongAnswerIsCountedAsAnErrorAndMissesTheGuarantee() {
        ScenarioResult r = new Runner(TWO_SECONDS).run(Targets.launcher(pg(), SideParams.NONE),
                new ScenarioSource("WrongAnswer", WrongAnswer::new));
        assertThat(r.status()).isEqualTo(Status.COMPLETED);
        var s = r.actions().get("SELECT 2 (reuse connection)");
        assertThat(s.queries()).isPositive();
        assertThat(s.errors()).isEqualTo(s.queries());
        assertThat(s.errorCounts()).containsOnlyKeys("wrong result: expected 1 row(s) [[1]], got 1 row(s) [[2]]");
        assertThat(r.violations()).singleElement().satisfies(v -> assertThat(v.guarantee().stat()).isEqualTo(Stat.ERROR_RATE));
        assertThat(r.passed()).isFalse();
    }

    /** --compare-to-history through the history file: a stored result of another scenario version is never compared. */
    @Test
    void comparingToHistoryUsesOnlyTheSameScenarioVersion(@TempDir Path dir) {
        SideConfig side = new SideConfig(pg(), SideParams.NONE);
        ScenarioResult stored = new Runner(TWO_SECONDS).run(Targets.launcher(pg(), SideParams.NONE),
                ScenarioSource.of(Read.class));
        ScenarioResult older = new ScenarioResult(stored.scenario(), "0.9.0", stored.status(), stored.failure(),
                stored.actions(), stored.timeSeries(), stored.loadPhases(), stored.messages(), stored.warnings(),
                stored.violations());
        try (HistoryStore history = HistoryStore.open(dir.resolve("history.sqlite"))) {
            ComparisonHistory.record(history, BenchFixtures.runInfo("b1", RunMode.COMPARE),
                    List.of(new ScenarioComparison("Read", List.of(stored), List.of(), List.of(), List.of())));
            ComparisonHistory.record(history, BenchFixtures.runInfo("b0", RunMode.COMPARE),
                    List.of(new ScenarioComparison("Read", List.of(older), List.of(), List.of(), List.of())));
            for (String build : List.of("b1", "b0", "never")) {
                var options = new BenchSession.Options(RunMode.COMPARE_TO_HISTORY, side, null, 1, TWO_SECONDS,
                        List.of(ScenarioSource.of(Read.class)), Shard.ALL, build);
                BenchRun run = new BenchSession(options, new PrintWriter(new StringWriter()), history).execute();
                ScenarioComparison c = run.comparisons().getFirst();
                switch (build) {
                    case "b1" -> {
                        assertThat(c.verdicts()).isNotEmpty();
                        assertThat(c.problems()).isEmpty();
                        assertThat(run.otherFromHistory()).containsKey("Read");
                    }
                    case "b0" -> {
                        assertThat(c.problems()).singleElement().asString().contains("measured version 1.0.0")
                                .contains("has version 0.9.0").contains("not comparable");
                        assertThat(run.passed()).isFalse();
                    }
                    default -> {
                        assertThat(c.verdicts()).isEmpty();
                        assertThat(c.problems()).singleElement().asString()
                                .contains("build never has no stored completed result of Read");
                        assertThat(run.passed()).isFalse();
                    }
                }
            }
        }
    }
}
