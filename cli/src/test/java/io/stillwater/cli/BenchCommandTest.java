package io.stillwater.cli;

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.cli.BenchRun;
import io.stillwater.bench.cli.BenchSession;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.cli.SideConfig;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenarios.InsertsSelects;
import io.stillwater.bench.scenarios.Read;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.targets.TargetSpec;
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
        var options = new BenchSession.Options(RunMode.COMPARE, embedded, embedded, 1, Duration.ofSeconds(2),
                List.of(ScenarioSource.of(Read.class), ScenarioSource.of(InsertsSelects.class)), Shard.ALL, "");
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
    void aParameterTheEngineDoesNotKnowFailsTheScenarioWithTheEnginesMessage(@TempDir Path results) {
        Run r = bench("--scenario", "Read", "--runs", "1", "--load-phase-duration", "1",
                "--other-params", "no_such_parameter=1", "--results", results.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        String flat = r.out().replaceAll("\\s+", " ");
        assertThat(flat).contains("== Read 1.0.0 FAILED")
                .contains("starting the target: 42704: unrecognized configuration parameter \"no_such_parameter\"")
                .contains("other: dev (embedded; no_such_parameter=1)")
                .contains("- FAIL");
    }

    @Test
    void anInvalidValueFailsTheScenarioAndAValidOneIsReadBackAndRecorded(@TempDir Path results) {
        Run bad = bench("--scenario", "Read", "--runs", "1", "--load-phase-duration", "1",
                "--other-params", "enable_compute_interactive_runtime=maybe", "--results", results.toString());
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out().replaceAll("\\s+", " ")).contains("22023: invalid value for parameter "
                + "\"enable_compute_interactive_runtime\": \"maybe\"");

        Run good = bench("--scenario", "Read", "--runs", "1", "--load-phase-duration", "1",
                "--other-params", "enable_compute_interactive_runtime=false", "--results", results.toString());
        // read back with SHOW as mz_system, in the engine's spelling, and printed with the run
        assertThat(good.out().replaceAll("\\s+", " "))
                .contains("note: system parameters in effect (SHOW as mz_system): enable_compute_interactive_runtime=off")
                .doesNotContain("FAILED");
        // and recorded with the other side's run in the history
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            long id = h.latestRun("dev").orElseThrow().id();
            assertThat(h.messages(id, "Read", "other", 1)).contains(
                    "system parameters in effect (SHOW as mz_system): enable_compute_interactive_runtime=off");
            assertThat(h.messages(id, "Read", "this", 1)).noneMatch(m -> m.startsWith("system parameters"));
        }
    }

    /**
     * One tool: a run is recorded in the history and written as report.html, report.json and
     * junit.xml; --calibrate stores spreads that later reports show beside the thresholds; and
     * --compare-to-history compares with the recorded build.
     */
    @Test
    void runsAreRecordedReportedCalibratedAndComparedToHistory(@TempDir Path results) throws Exception {
        String[] common = {"--scenario", "Read", "--load-phase-duration", "1", "--results", results.toString()};
        Run first = bench(concat(common, "--runs", "1", "--build", "b1"));
        assertThat(first.exitCode()).as(first.out() + first.err())
                .isEqualTo(ExpectedExit.ofBench(results.resolve("report.json"), first.out()));
        assertThat(first.out()).contains("stillwater bench, compare, 1 run per side").contains("this:  b1 (embedded)")
                .contains("== Read 1.0.0  ").contains("reports: ");
        for (String f : List.of("report.html", "report.json", "junit.xml", "history.sqlite")) {
            assertThat(results.resolve(f)).isNotEmptyFile();
        }
        assertThat(Files.readString(results.resolve("junit.xml"))).contains("SELECT 1 (reuse connection)");
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            assertThat(h.latestRun("b1")).isPresent();
            assertThat(h.statsFor("b1", "Read")).isPresent();
        }

        Run calibrate = bench(concat(common, "--calibrate", "--runs", "2", "--build", "b1"));
        assertThat(calibrate.exitCode()).as(calibrate.out() + calibrate.err()).isZero(); // noise never fails A/A
        assertThat(calibrate.out()).contains("stillwater bench, calibrate");
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            assertThat(h.calibration("Read", "SELECT 1 (reuse connection)", Stat.QPS)).isPresent()
                    .get().satisfies(c -> assertThat(c.runs()).isEqualTo(4));
        }

        Run compared = bench(concat(common, "--runs", "1", "--compare-to-history", "b1", "--build", "b2"));
        assertThat(compared.exitCode()).as(compared.out() + compared.err())
                .isEqualTo(ExpectedExit.ofBench(results.resolve("report.json"), compared.out()));
        assertThat(compared.out()).contains("compare_to_history").contains("other: b1 (history:b1")
                .doesNotContain("FAILED");
        // the stored calibration is shown beside the thresholds (SPREAD column has a value, not "-")
        assertThat(compared.out().lines().filter(l -> l.strip().startsWith("qps /s")))
                .singleElement().asString().containsPattern("\\+-[0-9.]+%");
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            assertThat(h.latestRun("b2").orElseThrow().info().otherSide().target()).isEqualTo("history:b1");
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
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
        // every known scenario, the interactive-runtime ones first
        assertThat(r.err()).contains("unknown scenario Reed; known scenarios: TemporaryDataflowFloor, ")
                .contains("MaintenanceUnderPeekSaturation, Read, PoolRead");
    }

    @Test
    void contradictoryModesAreUsageErrors() {
        assertThat(bench("--calibrate", "--other", "embedded").err()).contains("--calibrate runs this side against itself");
        assertThat(bench("--calibrate", "--compare-to-history", "b1").err()).contains("exclude each other");
        Run history = bench("--compare-to-history", "b1", "--history", "/no/such/history.sqlite");
        assertThat(history.exitCode()).isEqualTo(2);
        assertThat(history.err()).contains("reads the results history /no/such/history.sqlite, which does not exist");
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
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, StillwaterCli.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                        .map(e -> Path.of(e).toUri().toString()).collect(Collectors.joining(" ")));
        try (var out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            // the manifest is the whole jar
        }
        Run r = bench("--other", "jar:" + jar, "--scenario", "Read", "--runs", "1", "--load-phase-duration", "1",
                "--other-params", "enable_compute_interactive_runtime=off", "--results", dir.resolve("results").toString());
        assertThat(r.out()).contains("other: jar:" + jar).contains("== Read 1.0.0  ")
                .doesNotContain("FAILED").contains("SELECT 1 (reuse connection)");
        assertThat(r.exitCode()).as(r.out() + r.err())
                .isEqualTo(ExpectedExit.ofBench(dir.resolve("results").resolve("report.json"), r.out()));
        assertThat(r.out()).containsPattern("qps /s +[0-9.]+ +[0-9.]+ ");
        // --system-parameter-default reached the launched build: read back, not assumed
        assertThat(r.out().replaceAll("\\s+", " "))
                .contains("system parameters in effect (SHOW as mz_system): enable_compute_interactive_runtime=off");
    }
}
