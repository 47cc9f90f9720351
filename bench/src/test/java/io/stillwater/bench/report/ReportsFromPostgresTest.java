package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.history.SideInfo;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.runner.Target;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.slt.PostgresCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The runner's real output against a real PostgreSQL, through history and every report. */
class ReportsFromPostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    public static final class Lookups extends Scenario {
        public Lookups() {
            pool(2);
            setup("CREATE TABLE lk (k int PRIMARY KEY, v int)",
                    "INSERT INTO lk SELECT g, g FROM generate_series(1, 100) g");
            var lookup = pooled("SELECT v FROM lk WHERE k = 7");
            var broken = reuseConn("SELECT * FROM no_such_table");
            load(Duration.ofSeconds(1), openLoop(lookup, periodic(40)), openLoop(broken, periodic(5))
                    .reportRegressions(false));
            cleanup("DROP TABLE lk");
        }
    }

    @Test
    void realResultsRoundTripThroughHistoryAndRenderInEveryFormat(@TempDir Path dir) throws Exception {
        Target pg = Target.of(PG.jdbcUrl(), "postgres", Set.of());
        Runner runner = new Runner();
        ScenarioSource source = ScenarioSource.of(Lookups.class);
        Instant started = Instant.now();
        ScenarioComparison c = runner.compare(pg, pg, source, 1);
        RunInfo info = new RunInfo(started, Instant.now(), RunMode.COMPARE, RunInfo.FRAMEWORK_VERSION,
                new SideInfo("pg-a", "url:" + PG.jdbcUrl(), Map.of()),
                new SideInfo("pg-b", "url:" + PG.jdbcUrl(), Map.of()), 1, null, RunInfo.hostFacts());

        String lookup = "SELECT v FROM lk WHERE k = 7 (pooled)";
        String broken = "SELECT * FROM no_such_table (reuse connection)";
        try (HistoryStore history = HistoryStore.open(dir.resolve("history.sqlite"))) {
            ComparisonHistory.record(history, info, List.of(c));
            StoredScenario stored = history.statsFor("pg-a", "Lookups").orElseThrow();
            ActionStatistics original = c.thisRuns().get(0).actions().get(lookup);
            assertThat(stored.runs().get(0).get(lookup)).isEqualTo(original);
            Histogram h = stored.histograms().get(0).get(lookup);
            assertThat(h.getTotalCount()).isEqualTo(40);
            assertThat(h.getValueAtPercentile(95) / 1e3).isEqualTo(original.p95());
            assertThat(stored.runs().get(0).get(broken).errorCounts()).containsOnlyKeys(
                    "42P01: relation \"no_such_table\" does not exist");

            // compare-to-history: a fresh this side against the stored pg-a
            ScenarioResult fresh = runner.run(pg, source);
            ScenarioComparison vsHistory = ComparisonHistory.against(stored, List.of(fresh),
                    new Lookups().definition()::thresholdsFor);
            assertThat(vsHistory.problems()).isEmpty();
            assertThat(vsHistory.verdicts()).isNotEmpty();
            BenchReport r = BenchReport.of(info, List.of(c, vsHistory))
                    .withOtherFromHistory(Map.of("Lookups", stored));
            ReportFiles.Written w = ReportFiles.writeAll(r, dir.resolve("results"));

            String html = Files.readString(w.html());
            assertThat(HtmlReportTest.occurrences(html, "<svg class=\"chart latency-over-time\"")).isEqualTo(4);
            assertThat(html).contains("other (history)");
            JsonNode json = new ObjectMapper().readTree(Files.readString(w.json()));
            assertThat(json.at("/scenarios/0/runs/this/0/actions").get(lookup).get("queries").asInt()).isEqualTo(40);
            assertThat(json.at("/scenarios/0/runs/this/0/actions").get(broken).get("errors").asInt()).isEqualTo(5);
            assertThat(Files.readString(w.junit())).contains("<testsuite name=\"bench.Lookups\"");
            assertThat(TerminalTable.render(r)).contains("== Lookups").contains(lookup);
            // real timings can regress by chance between two 1-second runs; never failed or skipped
            assertThat(r.outcome(c).verdict()).isNotIn(ScenarioVerdict.FAILED, ScenarioVerdict.SKIPPED,
                    ScenarioVerdict.INVALID);
        }
    }
}
