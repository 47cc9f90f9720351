package io.stillwater.bench.history;

import static io.stillwater.bench.history.BenchFixtures.LOOKUP;
import static io.stillwater.bench.history.BenchFixtures.WALK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryStoreTest {
    @TempDir
    Path dir;

    @Test
    void aRecordedRunReadsBackWithTheSameStatisticsAndPercentiles() {
        ScenarioComparison c = BenchFixtures.twoActions("PeekIsolation", 1.0);
        Path file = dir.resolve("sub/history.sqlite");
        long id;
        try (HistoryStore store = HistoryStore.open(file)) {
            id = ComparisonHistory.record(store, BenchFixtures.runInfo("feature-x", RunMode.COMPARE), List.of(c));
        }
        // reopen: everything came from the file
        try (HistoryStore store = HistoryStore.open(file)) {
            StoredRun run = store.latestRun("feature-x").orElseThrow();
            assertThat(run.id()).isEqualTo(id);
            assertThat(run.info()).isEqualTo(BenchFixtures.runInfo("feature-x", RunMode.COMPARE));

            StoredScenario s = store.statsFor("feature-x", "PeekIsolation").orElseThrow();
            assertThat(s.version()).isEqualTo("1.2.0");
            assertThat(s.runs()).hasSize(2);
            for (int i = 0; i < 2; i++) {
                ScenarioResult original = c.thisRuns().get(i);
                for (String action : List.of(LOOKUP, WALK)) {
                    ActionStatistics want = original.actions().get(action);
                    assertThat(s.runs().get(i).get(action)).isEqualTo(want);
                    Histogram h = s.histograms().get(i).get(action);
                    assertThat(h.getTotalCount()).isEqualTo(want.queries() - want.errors());
                    // the stored histogram gives the recorder's percentiles exactly
                    assertThat(h.getValueAtPercentile(50) / 1e3).isEqualTo(want.p50());
                    assertThat(h.getValueAtPercentile(95) / 1e3).isEqualTo(want.p95());
                    assertThat(h.getValueAtPercentile(99) / 1e3).isEqualTo(want.p99());
                    assertThat(h.getValueAtPercentile(99.9) / 1e3).isEqualTo(want.p99_9());
                }
            }
            assertThat(s.runs().get(0).get(LOOKUP).errorCounts())
                    .containsEntry("57014: canceling statement due to user request", 3L);
            assertThat(store.verdicts(id, "PeekIsolation")).isEqualTo(c.verdicts());
            assertThat(store.outcome(id, "PeekIsolation").orElseThrow().verdict()).isEqualTo(ScenarioVerdict.PASSED);
        }
    }

    @Test
    void latestRunAndStatsForPickTheNewestRunOfTheBuildThatCompletedTheScenario() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            long first = ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
            ScenarioComparison failedOnly = BenchFixtures.compare("Read",
                    List.of(BenchFixtures.failed("Read", "phase 1 (setup): 42P01: relation \"t\" does not exist")),
                    List.of());
            long second = ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE), List.of(failedOnly));
            ComparisonHistory.record(store, BenchFixtures.runInfo("other-build", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 2.0)));

            assertThat(store.latestRun("main").orElseThrow().id()).isEqualTo(second);
            assertThat(store.statsFor("main", "Read").orElseThrow().run().id()).isEqualTo(first);
            assertThat(store.statsFor("main", "NoSuchScenario")).isEmpty();
            assertThat(store.latestRun("never-recorded")).isEmpty();
            assertThat(store.outcome(second, "Read").orElseThrow().verdict()).isEqualTo(ScenarioVerdict.FAILED);
        }
    }

    @Test
    void comparingToHistoryUsesTheStoredRunsAsTheOtherSideAndRefusesAnotherVersion() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
            StoredScenario stored = store.statsFor("main", "Read").orElseThrow();
            List<ScenarioResult> slower = BenchFixtures.twoActions("Read", 2.0).thisRuns();
            ScenarioComparison c = ComparisonHistory.against(stored, slower, a -> Thresholds.DEFAULT);
            assertThat(c.otherRuns()).isEmpty();
            assertThat(c.problems()).isEmpty();
            assertThat(ComparisonHistory.outcome(c).verdict()).isEqualTo(ScenarioVerdict.REGRESSED);

            ScenarioResult bumped = slower.get(0);
            bumped = new ScenarioResult(bumped.scenario(), "2.0.0", bumped.status(), bumped.failure(),
                    bumped.actions(), bumped.timeSeries(), bumped.loadPhases(), bumped.messages(), bumped.warnings(),
                    bumped.violations());
            ScenarioComparison other = ComparisonHistory.against(stored, List.of(bumped), a -> Thresholds.DEFAULT);
            assertThat(other.problems()).singleElement().asString().contains("version 2.0.0")
                    .contains("has version 1.2.0");
            assertThat(ComparisonHistory.outcome(other).verdict()).isEqualTo(ScenarioVerdict.FAILED);
        }
    }

    @Test
    void invalidScenariosAreRecordedAsInvalid() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            long id = ComparisonHistory.record(store, BenchFixtures.runInfo("b", RunMode.COMPARE),
                    List.of(BenchFixtures.invalid("Read", "expected the lookups on the interactive runtime, 0 of 2000 were")));
            ScenarioOutcome o = store.outcome(id, "Read").orElseThrow();
            // the runs keep their status, so a later --compare-to-history never uses their numbers
            assertThat(store.statsFor("b", "Read")).isEmpty();
            assertThat(o.verdict()).isEqualTo(ScenarioVerdict.INVALID);
            assertThat(o.reason()).contains("interactive runtime");
        }
    }

    @Test
    void calibrationsAreStoredPerScenarioActionAndStatAndReplacedByLaterOnes() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            ScenarioComparison aa = BenchFixtures.twoActions("Read", 1.0);
            long id = ComparisonHistory.record(store, BenchFixtures.runInfo("b", RunMode.CALIBRATE), List.of(aa));
            List<Calibration> saved = ComparisonHistory.saveCalibration(store, id, aa);
            assertThat(saved).isNotEmpty();
            Calibration p50 = store.calibration("Read", LOOKUP, Stat.P50).orElseThrow();
            double[] values = aa.thisRuns().stream().map(r -> r.actions().get(LOOKUP).p50())
                    .mapToDouble(Double::doubleValue).toArray();
            double[] others = aa.otherRuns().stream().map(r -> r.actions().get(LOOKUP).p50())
                    .mapToDouble(Double::doubleValue).toArray();
            double max = Math.max(Math.max(values[0], values[1]), Math.max(others[0], others[1]));
            double min = Math.min(Math.min(values[0], values[1]), Math.min(others[0], others[1]));
            assertThat(p50.relativeSpread()).isCloseTo(max / min - 1, Offset.offset(1e-12));
            assertThat(p50.runs()).isEqualTo(4);
            assertThat(p50.scenarioVersion()).isEqualTo("1.2.0");

            store.saveCalibration(id, List.of(new Calibration("Read", "1.2.0", LOOKUP, Stat.P50, 0.4, 1.0, 6)));
            Calibration replaced = store.calibration("Read", LOOKUP, Stat.P50).orElseThrow();
            assertThat(replaced.relativeSpread()).isEqualTo(0.4);
            assertThat(replaced.tighterThanNoise(Threshold.ratio(1.5))).isTrue();   // 50% < 2 x 40%
            assertThat(replaced.tighterThanNoise(Threshold.ratio(1.9))).isFalse();  // 90% >= 80%
            assertThat(replaced.tighterThanNoise(Threshold.UNGATED)).isFalse();
            assertThat(store.calibrations().find("Read", LOOKUP, Stat.P50)).contains(replaced);
            assertThat(store.calibration("Read", LOOKUP, Stat.P99))
                    .isPresent();
            assertThat(store.calibration("Nope", LOOKUP, Stat.P50)).isEmpty();
        }
    }

    @Test
    void aVersionOneHistoryIsUpgradedInPlaceAndKeepsItsRuns() throws Exception {
        Path file = dir.resolve("v1.sqlite");
        long old;
        try (HistoryStore store = HistoryStore.open(file)) {
            old = ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
        }
        // make it the version 1 layout: no messages column
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE scenario_runs DROP COLUMN messages");
            s.execute("DELETE FROM schema_version");
            s.execute("INSERT INTO schema_version (version) VALUES (1)");
        }
        try (HistoryStore store = HistoryStore.open(file)) {
            assertThat(store.messages(old, "Read", "this", 1)).isEmpty();
            assertThat(store.statsFor("main", "Read")).isPresent();
            long id = ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
            assertThat(store.messages(id, "Read", "this", 1))
                    .containsExactly("skipped `ALTER SYSTEM SET x = 1`: the target has no such parameter");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(HistoryStore.SCHEMA_VERSION);
        }
    }

    @Test
    void aHistoryWrittenByANewerBuildIsRefusedWithAClearMessage() throws Exception {
        Path file = dir.resolve("h.sqlite");
        try (HistoryStore store = HistoryStore.open(file)) {
            ComparisonHistory.record(store, BenchFixtures.runInfo("b", RunMode.COMPARE), List.of());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("UPDATE schema_version SET version = " + (HistoryStore.SCHEMA_VERSION + 1));
        }
        assertThatThrownBy(() -> HistoryStore.open(file)).isInstanceOf(HistoryException.class)
                .hasMessageContaining("schema version " + (HistoryStore.SCHEMA_VERSION + 1))
                .hasMessageContaining("newer than the version " + HistoryStore.SCHEMA_VERSION)
                .hasMessageContaining(file.toAbsolutePath().toString());
    }

    @Test
    void aFileThatIsNotAHistoryIsRefused() throws Exception {
        Path text = dir.resolve("notes.sqlite");
        Files.writeString(text, "this is not a database, just some text that is long enough to have a header");
        assertThatThrownBy(() -> HistoryStore.open(text)).isInstanceOf(HistoryException.class)
                .hasMessageContaining("not a readable SQLite database");

        Path other = dir.resolve("other.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE measurements (scenario TEXT, action TEXT, duration REAL)");
        }
        assertThatThrownBy(() -> HistoryStore.open(other)).isInstanceOf(HistoryException.class)
                .hasMessageContaining("not a stillwater bench results history");
    }

    @Test
    void histogramsRoundTripThroughTheirTextEncoding() {
        Histogram h = new Histogram(3);
        for (long v = 1; v < 200_000; v += 37) {
            h.recordValue(v);
        }
        Histogram back = HistogramCodec.decode(HistogramCodec.encode(h));
        assertThat(back).isEqualTo(h);
        for (double q : new double[] {0, 50, 90, 99, 99.9, 100}) {
            assertThat(back.getValueAtPercentile(q)).isEqualTo(h.getValueAtPercentile(q));
        }
    }
}
