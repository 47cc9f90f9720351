package io.stillwater.bench.feature.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.cli.BenchCommand;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.report.FeatureFixtures;
import io.stillwater.bench.scenario.Capability;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code feature-bench} over scenarios of the test's own: listing and every usage error (exit 2 with
 * a message naming the problem). Runs that measure need an engine; the cli module's FeatureBenchCliTest
 * has them.
 */
class FeatureBenchCommandTest {
    /** A group of the test catalog. */
    public abstract static class Lookups extends FeatureScenario {
    }

    /** A group inside {@link Lookups}. */
    public abstract static class Points extends Lookups {
    }

    public static final class PointA extends Points {
        @Override
        public double defaultScale() {
            return 3;
        }

        @Override
        public Set<Capability> requires() {
            return Set.of(Capability.INDEXES);
        }

        @Override
        public String init() {
            return "CREATE TABLE a (f1 int); INSERT INTO a SELECT g FROM generate_series(1, " + n() + ") g";
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(10, "SELECT * FROM a WHERE f1 = 1"));
        }
    }

    public static final class RangeB extends Lookups {
        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public String version() {
            return "2.0.1";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM generate_series(1, 100) /* A */ /* B */");
        }
    }

    public static final class Plain extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    /** {@link PointA} again, differing only in case, whitespace and comments. */
    public static final class PointACopy extends Points {
        @Override
        public double defaultScale() {
            return 3;
        }

        @Override
        public String init() {
            return "create table a (f1 INT);  insert into a select g from generate_series(1, " + n() + ") g;";
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(10, "select *   from a where f1 = 1"));
        }
    }

    private static final List<Class<? extends FeatureScenario>> CATALOG = List.of(PointA.class, RangeB.class,
            Plain.class);

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(List<Class<? extends FeatureScenario>> catalog, String... args) {
        CommandLine cli = new CommandLine(new FeatureBenchCommand(() -> catalog));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void listShowsEveryScenarioWithGroupPathScaleFixedScaleVersionAndRequirementsAndTheGroups() {
        Run r = run(CATALOG, "--list");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("SCENARIO +GROUP +SCALE +FIXED +VERSION +SHARD \\(of 1\\) +REQUIRES");
        assertThat(r.out()).containsPattern("PointA +Lookups/Points +3 +no +1\\.0\\.0 +0 +INDEXES");
        assertThat(r.out()).containsPattern("RangeB +Lookups +5 +yes +2\\.0\\.1 +0 +-");
        assertThat(r.out()).containsPattern("Plain +- +5 +no +1\\.0\\.0 +0 +-");
        assertThat(r.out()).contains("groups (--root-scenario): Lookups, Points");
    }

    @Test
    void listWithARootListsOnlyTheScenariosBelowIt() {
        Run r = run(CATALOG, "--list", "--root-scenario", "Points");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("PointA").doesNotContain("RangeB").doesNotContain("Plain ");
    }

    @Test
    void aBadScaleIsAUsageError() {
        Run r = run(CATALOG, "--scale", "lots");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--scale").contains("lots");
    }

    @Test
    void anUnknownScenarioIsAUsageErrorNamingIt() {
        Run r = run(CATALOG, "--scenario", "PointA", "--scenario", "NoSuchScenario");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("NoSuchScenario");
    }

    @Test
    void anUnknownRootScenarioIsAUsageErrorNamingIt() {
        Run r = run(CATALOG, "--root-scenario", "NoSuchGroup");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("NoSuchGroup");
    }

    @Test
    void duplicateScenariosAreAUsageErrorNamingBoth() {
        Run r = run(List.of(PointA.class, RangeB.class, PointACopy.class), "--other", "jar:/nonexistent.jar");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("PointA").contains("PointACopy");
    }

    @Test
    void aBadTargetOrCountIsAUsageError() {
        Run target = run(CATALOG, "--this", "ftp://somewhere");
        assertThat(target.exitCode()).isEqualTo(2);
        assertThat(target.err()).contains("ftp://somewhere");
        Run max = run(CATALOG, "--max-measurements", "0");
        assertThat(max.exitCode()).isEqualTo(2);
        assertThat(max.err()).contains("--max-measurements must be at least 1");
        Run runs = run(CATALOG, "--runs-per-scenario", "0");
        assertThat(runs.exitCode()).isEqualTo(2);
        assertThat(runs.err()).contains("--runs-per-scenario must be at least 1");
    }

    @Test
    void aMissingCatalogFailsWithAClearMessage() {
        CommandLine cli = new CommandLine(new FeatureBenchCommand(() -> {
            throw new IllegalStateException("this build has no feature-bench scenario catalog");
        }));
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute("--list")).isEqualTo(1);
        assertThat(err.toString()).contains("stillwater feature-bench: this build has no feature-bench scenario catalog");
    }

    /** docs/bench.md states the policy in numbers; they must be the ones in force (the reference's docs drifted). */
    @Test
    void theDocsStateTheValuesInForce() throws Exception {
        String docs = Files.readString(Path.of("../docs/bench.md")).replaceAll("\\s+", " ");
        MeasurementPolicy p = MeasurementPolicy.DEFAULT;
        assertThat(docs).contains("Each metric discards its own first " + p.warmup() + " samples")
                .contains("(default " + p.maxMeasurements() + ", warm-up included")
                .contains("at least " + p.minKept() + " kept samples")
                .contains("distribution-free " + Math.round(p.confidence() * 100) + "% confidence interval")
                .contains("no wider than " + Math.round(p.maxRelativeWidth() * 100) + "% of that median")
                .contains("runs per side at most for a scenario that regressed in its first run (default "
                        + FeatureBenchCommand.DEFAULT_RUNS_PER_SCENARIO + ")")
                .contains(BenchCommand.MAIN_JOB_OTHER_PARAMS);
    }

    @Test
    void helpExplainsTheRuleThresholdsAndReRunsWithTheValuesInForce() {
        Run r = run(CATALOG, "--help");
        assertThat(r.exitCode()).isZero();
        MeasurementPolicy p = MeasurementPolicy.DEFAULT;
        String help = r.out().replaceAll("\\s+", " ");
        assertThat(help).contains("discards " + p.warmup() + " warm-up samples per metric")
                .contains(Math.round(p.confidence() * 100) + "% confidence interval")
                .contains("no wider than " + Math.round(p.maxRelativeWidth() * 100) + "% of the median")
                .contains("at least " + p.minKept() + " samples kept")
                .contains("(default: " + p.maxMeasurements() + ")")
                .contains("more than 10% slower").contains("more than 20% more")
                .contains("judged on the samples of all runs pooled")
                .contains(BenchCommand.MAIN_JOB_OTHER_PARAMS)
                .contains("Examples:");
    }

    /** The scenario names {@code --list} printed (the rows before the blank line). */
    private static List<String> listed(Run r) {
        return r.out().lines().skip(1).takeWhile(l -> !l.isBlank()).map(l -> l.split(" +")[0]).toList();
    }

    @Test
    void shardSplitsTheSelectionByShardsRuleAndListShowsEachScenariosShard() {
        List<String> all = List.of("PointA", "RangeB", "Plain");
        for (int n = 2; n <= 3; n++) {
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Run r = run(CATALOG, "--list", "--shard", i + "/" + n);
                assertThat(r.exitCode()).as(r.err()).isZero();
                final int shard = i;
                final int count = n;
                // exactly the scenarios whose name's CRC32 mod n is i, shown with that shard
                assertThat(listed(r)).containsExactlyElementsOf(
                        all.stream().filter(s -> Shard.of(s, count) == shard).toList());
                assertThat(r.out()).contains("SHARD (of " + n + ")");
                for (String name : listed(r)) {
                    assertThat(r.out()).containsPattern(name + " .* " + shard + " +\\S+\\R");
                }
                seen.addAll(listed(r));
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(all); // the shards partition the selection
        }
        // applied after the selection: a shard of --root-scenario Lookups never lists Plain
        for (int i = 0; i < 3; i++) {
            Run r = run(CATALOG, "--list", "--root-scenario", "Lookups", "--shard", i + "/3");
            final int shard = i;
            assertThat(listed(r)).containsExactlyElementsOf(List.of("PointA", "RangeB").stream()
                    .filter(s -> Shard.of(s, 3) == shard).toList());
        }
    }

    @Test
    void aBadShardIsAUsageError() {
        Run r = run(CATALOG, "--list", "--shard", "3/3");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--shard i/n").contains("3/3");
        assertThat(run(CATALOG, "--shard", "half").err()).contains("--shard takes i/n");
    }

    @Test
    void compareToHistoryExcludesOtherOtherParamsAndCalibrate() {
        Run other = run(CATALOG, "--compare-to-history", "base", "--other", "jar:/x.jar");
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.err()).contains("--compare-to-history compares with stored results; --other and "
                + "--other-params do not apply");
        Run params = run(CATALOG, "--compare-to-history", "base", "--other-params", "");
        assertThat(params.exitCode()).isEqualTo(2);
        assertThat(params.err()).contains("--other and --other-params do not apply");
        Run calibrate = run(CATALOG, "--compare-to-history", "base", "--calibrate");
        assertThat(calibrate.exitCode()).isEqualTo(2);
        assertThat(calibrate.err()).contains("--calibrate and --compare-to-history exclude each other");
    }

    private static final String PG = "url:postgresql://postgres@127.0.0.1:1/postgres"; // never reached

    @Test
    void compareToHistoryWithoutAHistoryFileIsAUsageError(@TempDir Path dir) {
        Run r = run(CATALOG, "--compare-to-history", "base", "--this", PG, "--results", dir.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--compare-to-history base reads the results history "
                + dir.resolve("history.sqlite")).contains("which does not exist");
        assertThat(dir.resolve("history.sqlite")).doesNotExist();
    }

    @Test
    void compareToHistoryOfABuildWithoutFeatureRunsIsAUsageErrorListingTheBuildsThatHaveSome(@TempDir Path dir) {
        Path file = dir.resolve("history.sqlite");
        try (HistoryStore store = HistoryStore.open(file)) {
            FeatureHistory.record(store, FeatureFixtures.info(), FeatureFixtures.scenarios()); // build "dev"
        }
        Run r = run(CATALOG, "--compare-to-history", "base", "--this", PG, "--history", file.toString(),
                "--results", dir.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains(file + " has no feature-bench run of build base; builds with feature-bench "
                + "runs: dev");

        Path empty = dir.resolve("empty.sqlite");
        HistoryStore.open(empty).close();
        Run none = run(CATALOG, "--compare-to-history", "base", "--this", PG, "--history", empty.toString(),
                "--results", dir.toString());
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("has no feature-bench run of build base; it has no feature-bench runs at all");
    }

    @Test
    void helpDocumentsShardAndCompareToHistory() {
        String help = run(CATALOG, "--help").out().replaceAll("\\s+", " ");
        assertThat(help).contains("--shard=I/N Run only shard I (0-based) of N: the scenarios whose name's CRC32 "
                + "(UTF-8) mod N is I")
                .contains("--compare-to-history=BUILD Compare this side with the stored results of BUILD instead "
                        + "of running another side");
    }
}
