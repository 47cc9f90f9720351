package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.cli.BenchRun;
import io.stillwater.bench.cli.BenchSession;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.cli.SideConfig;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenarios.InsertsSelects;
import io.stillwater.bench.scenarios.Read;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.TargetSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code stillwater bench} on the embedded engine: the bench's targets, scenarios and command end to end. */
class BenchCommandTest {
    private record Run(int exitCode, String out, String err) {}

    private static Run bench(String... args) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        String[] full = new String[args.length + 1];
        full[0] = "bench";
        System.arraycopy(args, 0, full, 1, args.length);
        int code = cli.execute(full);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void twoGenericScenariosThisVersusOtherOnTheEmbeddedEngine(@TempDir Path results) {
        SideConfig embedded = new SideConfig(new TargetSpec.Embedded(), SideParams.NONE);
        var options = new BenchSession.Options(BenchRun.Mode.COMPARE, embedded, embedded, 1, Duration.ofSeconds(2),
                List.of(ScenarioSource.of(Read.class), ScenarioSource.of(InsertsSelects.class)), Shard.ALL, "",
                results);
        StringWriter progress = new StringWriter();
        BenchRun run = new BenchSession(options, new PrintWriter(progress), null).execute();

        assertThat(run.comparisons()).extracting(ScenarioComparison::scenario).containsExactly("Read", "InsertsSelects");
        Map<String, List<String>> actions = Map.of(
                "Read", List.of("SELECT 1 (reuse connection)"),
                "InsertsSelects", List.of("INSERT INTO bench_ins_sel VALUES (1001) (reuse connection)",
                        "SELECT min(a) FROM bench_ins_sel (reuse connection)"));
        for (ScenarioComparison c : run.comparisons()) {
            for (List<ScenarioResult> side : List.of(c.thisRuns(), c.otherRuns())) {
                assertThat(side).as(c.scenario()).singleElement().satisfies(r -> {
                    assertThat(r.status()).as(r.failure()).isEqualTo(Status.COMPLETED);
                    assertThat(r.version()).isEqualTo("1.0.0");
                    assertThat(r.actions().keySet()).containsExactlyInAnyOrderElementsOf(actions.get(c.scenario()));
                    // every answer was checked (SELECT 1 is 1, min(a) stays 1) and none was wrong or failed
                    r.actions().values().forEach(s -> {
                        assertThat(s.queries()).as(s.action()).isPositive();
                        assertThat(s.errorCounts()).as(s.action()).isEmpty();
                    });
                    assertThat(r.violations()).isEmpty();
                });
            }
            assertThat(c.problems()).isEmpty();
            // one verdict per action and stat, thresholds as DESIGN's defaults
            Map<String, List<StatVerdict>> byAction = c.verdicts().stream()
                    .collect(Collectors.groupingBy(StatVerdict::action));
            assertThat(byAction.keySet()).containsExactlyInAnyOrderElementsOf(actions.get(c.scenario()));
            byAction.values().forEach(vs -> {
                assertThat(vs).extracting(StatVerdict::stat).containsExactlyInAnyOrder(Stat.values());
                assertThat(vs).filteredOn(v -> v.stat() == Stat.QPS).singleElement().satisfies(v -> {
                    assertThat(v.threshold()).isEqualTo(Threshold.ratio(1.2));
                    assertThat(v.outcome()).isIn(Outcome.OK, Outcome.REGRESSION);
                    assertThat(v.thisValue()).isPositive();
                    assertThat(v.otherValue()).isPositive();
                });
                assertThat(vs).filteredOn(v -> v.stat() == Stat.P99).extracting(StatVerdict::outcome)
                        .containsExactly(Outcome.UNGATED);
            });
        }
        assertThat(progress.toString()).contains("warm-up (results discarded): Read").contains("[2/2] InsertsSelects");
    }

    @Test
    void aParameterTheEngineDoesNotKnowFailsTheScenarioInsteadOfBeingIgnored() {
        Run r = bench("--scenario", "Read", "--runs", "1", "--load-phase-duration", "1",
                "--other-params", "no_such_parameter=1");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("== Read 1.0.0: FAILED")
                .contains("other run 1 FAILED: starting the target:")
                .contains("unrecognized configuration parameter no_such_parameter")
                .contains("other = embedded with no_such_parameter=1")
                .contains("NOT PASSED");
    }

    @Test
    void listShowsEveryScenarioWithVersionRequirementsAndShard() {
        Run r = bench("--list", "--shard", "0/1");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Read").contains("PoolRead").contains("ConnectRead").contains("InsertsSelects")
                .contains("OpenIndexedSelects").contains("PointLookupThroughput").contains("[INDEXES]");
    }

    @Test
    void unknownScenarioIsAUsageErrorNamingTheKnownOnes() {
        Run r = bench("--scenario", "Reed");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown scenario Reed; known scenarios: Read, PoolRead");
    }

    @Test
    void contradictoryModesAreUsageErrors() {
        assertThat(bench("--calibrate", "--other", "embedded").err()).contains("--calibrate runs this side against itself");
        assertThat(bench("--calibrate", "--compare-to-history", "b1").err()).contains("exclude each other");
        Run history = bench("--compare-to-history", "b1");
        assertThat(history.exitCode()).isEqualTo(2);
        assertThat(history.err()).contains("needs the results history");
        assertThat(bench("--this", "jar:/no/such.jar").err()).contains("no such file /no/such.jar");
        assertThat(bench("--shard", "2/2").err()).contains("0-based");
    }

    /**
     * The jar target end to end: "another build" is this build behind a launcher jar whose manifest
     * puts the test class path on its Class-Path, started by the bench as {@code java -jar PATH serve}.
     */
    @Test
    void aJarTargetIsLaunchedPerRunAndCompared(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("other-build.jar");
        java.util.jar.Manifest m = new java.util.jar.Manifest();
        m.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, StillwaterCli.class.getName());
        m.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH,
                java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                        .map(e -> Path.of(e).toUri().toString()).collect(Collectors.joining(" ")));
        try (var out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar), m)) {
            // the manifest is the whole jar
        }
        Run r = bench("--other", "jar:" + jar, "--scenario", "Read", "--runs", "1", "--load-phase-duration", "1");
        assertThat(r.out()).contains("other = jar:" + jar).contains("== Read 1.0.0: ")
                .doesNotContain("FAILED").contains("SELECT 1 (reuse connection)");
        assertThat(r.exitCode()).as(r.out()).isIn(0, 1); // 1 only for a (noise) regression, checked next
        assertThat(r.out()).containsPattern("SELECT 1 \\(reuse connection\\) +qps +[0-9.]+ +[0-9.]+ ");
    }
}
