package io.stillwater.bench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.run.StoredFeatureScenario;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.report.FeatureFixtures;
import io.stillwater.bench.runner.ComparisonHistory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The feature benchmark's part of the history: round trip, the 2 -> 3 upgrade, and that the parallel bench ignores it. */
class FeatureHistoryTest {
    @TempDir
    Path dir;

    @Test
    void aFeatureRunReadsBackExactlyAsRecorded() throws Exception {
        Path file = dir.resolve("history.sqlite");
        List<FeatureScenarioResult> scenarios = FeatureFixtures.scenarios();
        long id;
        try (HistoryStore store = HistoryStore.open(file)) {
            id = FeatureHistory.record(store, FeatureFixtures.info(), scenarios);
        }
        try (HistoryStore store = HistoryStore.open(file)) {
            assertThat(store.run(id).orElseThrow().info()).isEqualTo(FeatureFixtures.info());
            assertThat(store.latestFeatureRun("dev").orElseThrow().id()).isEqualTo(id);
            List<FeatureScenarioResult> back = FeatureHistory.results(store, id);
            // records compare every field: samples (kept and discarded, in order), verdicts (NaN medians
            // included), side-run order, stop reasons, parameters, messages, elapsed times
            assertThat(back).isEqualTo(scenarios);
            assertThat(back.get(0).verdicts()).extracting(MetricVerdict::text)
                    .containsExactly("25% slower", "within 20%", "not measured on other");
            assertThat(back.get(0).runsPerSide()).isEqualTo(2);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM feature_samples WHERE run_id = " + id)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(FeatureFixtures.sampleCount(scenarios));
        }
    }

    @Test
    void theThisSideOfAFeatureRunReadsBackWithItsSamplesForCompareToHistory() {
        Path file = dir.resolve("history.sqlite");
        List<FeatureScenarioResult> scenarios = FeatureFixtures.scenarios();
        long id;
        try (HistoryStore store = HistoryStore.open(file)) {
            assertThat(store.featureBuilds()).isEmpty();
            id = FeatureHistory.record(store, FeatureFixtures.info(), scenarios);
            // a parallel run of another build and a later feature run of "base": builds, latest first
            ComparisonHistory.record(store, BenchFixtures.runInfo("parallel-only", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
            RunInfo dev = FeatureFixtures.info();
            FeatureHistory.record(store, new RunInfo(dev.started(), dev.finished(), RunMode.FEATURE, dev.frameworkVersion(),
                    new SideInfo("base", "embedded", Map.of()), dev.otherSide(), 1, null, dev.host()),
                    List.of(scenarios.get(0)));
        }
        try (HistoryStore store = HistoryStore.open(file)) {
            assertThat(store.featureBuilds()).containsExactly("base", "dev");
            Map<String, StoredFeatureScenario> back = FeatureHistory.thisSide(store, id);
            assertThat(back.keySet()).containsExactlyElementsOf(scenarios.stream().map(FeatureScenarioResult::scenario)
                    .toList());
            for (FeatureScenarioResult r : scenarios) {
                StoredFeatureScenario s = back.get(r.scenario());
                assertThat(s.runId()).isEqualTo(id);
                assertThat(s.build()).isEqualTo("dev");
                assertThat(s.version()).isEqualTo(r.version());
                assertThat(s.scale()).isEqualTo(r.scale());
                assertThat(s.status()).isEqualTo(r.status());
                // exactly this side's measured runs, samples (kept and discarded) and all, in run order
                assertThat(s.thisRuns()).isEqualTo(r.runs().stream()
                        .filter(o -> o instanceof SideOutcome.Measured && o.side().equals("this"))
                        .map(o -> ((SideOutcome.Measured) o).run()).toList());
            }
            assertThat(back.get("PeekDataflowJoin").thisRuns()).hasSize(2)
                    .allSatisfy(run -> assertThat(run.samples().get(Metric.WALLCLOCK).kept()).isNotEmpty());
            assertThat(back.get("ManyIndexesRestart").thisRuns()).isEmpty();
            assertThat(back.get("CreateIndex").thisRuns()).hasSize(1); // its other side failed, this side measured
            assertThat(FeatureHistory.thisSide(store, id + 100)).isEmpty();
        }
    }

    @Test
    void aFeatureRunMustCarryModeFeatureAndAFailedRecordLeavesNothingBehind() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            assertThatThrownBy(() -> FeatureHistory.record(store, BenchFixtures.runInfo("dev", RunMode.COMPARE),
                    FeatureFixtures.scenarios())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("mode FEATURE");
            // the same scenario twice violates the primary key: the whole run is rolled back
            List<FeatureScenarioResult> twice = new ArrayList<>(FeatureFixtures.scenarios());
            twice.add(twice.get(0));
            assertThatThrownBy(() -> FeatureHistory.record(store, FeatureFixtures.info(), twice))
                    .isInstanceOf(HistoryException.class).hasMessageContaining("cannot record the feature-bench run");
            assertThat(store.latestFeatureRun("dev")).isEmpty();
        }
    }

    @Test
    void theParallelBenchsLookupsIgnoreFeatureRuns() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.sqlite"))) {
            long parallel = ComparisonHistory.record(store, BenchFixtures.runInfo("dev", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("PeekDataflowJoin", 1.0)));
            // a later feature run of the same build, with a scenario of the same name
            long feature = FeatureHistory.record(store, FeatureFixtures.info(), FeatureFixtures.scenarios());
            assertThat(feature).isGreaterThan(parallel);
            assertThat(store.latestRun("dev").orElseThrow().id()).isEqualTo(parallel);
            assertThat(store.statsFor("dev", "PeekDataflowJoin").orElseThrow().run().id()).isEqualTo(parallel);
            assertThat(store.latestFeatureRun("dev").orElseThrow().id()).isEqualTo(feature);
            assertThat(FeatureHistory.results(store, parallel)).isEmpty();
        }
        try (HistoryStore store = HistoryStore.open(dir.resolve("only-feature.sqlite"))) {
            FeatureHistory.record(store, FeatureFixtures.info(), FeatureFixtures.scenarios());
            assertThat(store.latestRun("dev")).isEmpty();
            assertThat(store.statsFor("dev", "PeekDataflowJoin")).isEmpty();
        }
    }

    @Test
    void aVersionTwoHistoryIsUpgradedInPlaceKeepingItsRuns() throws Exception {
        Path file = dir.resolve("v2.sqlite");
        long old;
        try (HistoryStore store = HistoryStore.open(file)) {
            old = ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE),
                    List.of(BenchFixtures.twoActions("Read", 1.0)));
        }
        // make it the version 2 layout: no feature tables
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            for (String t : List.of("feature_verdicts", "feature_samples", "feature_side_runs", "feature_scenarios")) {
                s.execute("DROP TABLE " + t);
            }
            s.execute("DELETE FROM schema_version");
            s.execute("INSERT INTO schema_version (version) VALUES (2)");
        }
        try (HistoryStore store = HistoryStore.open(file)) {
            assertThat(store.latestRun("main").orElseThrow().id()).isEqualTo(old);
            assertThat(store.statsFor("main", "Read")).isPresent();
            long id = FeatureHistory.record(store, FeatureFixtures.info(), FeatureFixtures.scenarios());
            assertThat(FeatureHistory.results(store, id)).isEqualTo(FeatureFixtures.scenarios());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(version), count(*) FROM schema_version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(3).isEqualTo(HistoryStore.SCHEMA_VERSION);
            assertThat(rs.getInt(2)).isEqualTo(2); // the version 2 row and the upgrade's
        }
    }

    @Test
    void aFailedUpgradeLeavesTheFileAtVersionTwo() throws Exception {
        Path file = dir.resolve("v2-broken.sqlite");
        try (HistoryStore store = HistoryStore.open(file)) {
            ComparisonHistory.record(store, BenchFixtures.runInfo("main", RunMode.COMPARE), List.of(BenchFixtures.twoActions("Read", 1.0)));
        }
        // version 2 whose schema_version refuses the upgrade's row: the upgrade fails after creating the tables
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            for (String t : List.of("feature_verdicts", "feature_samples", "feature_side_runs", "feature_scenarios")) {
                s.execute("DROP TABLE " + t);
            }
            s.execute("DELETE FROM schema_version");
            s.execute("INSERT INTO schema_version (version) VALUES (2)");
            s.execute("CREATE TRIGGER refuse BEFORE INSERT ON schema_version BEGIN SELECT RAISE(ABORT, 'refused'); END");
        }
        assertThatThrownBy(() -> HistoryStore.open(file)).isInstanceOf(HistoryException.class)
                .hasMessageContaining("refused");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
            // the tables created before the failure were rolled back with it
            try (ResultSet rs = s.executeQuery(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'feature_%'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }
}
