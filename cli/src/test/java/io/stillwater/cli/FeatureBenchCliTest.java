package io.stillwater.cli;

import io.stillwater.bench.feature.run.SideOutcome;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.report.ReportFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stillwater feature-bench} in process on the embedded engine: the same-build A/B with the
 * interactive runtime off on the other side shows the parameter's effective value, read back from
 * each side, differing in the terminal table and the JSON report.
 */
class FeatureBenchCliTest {
    private static final String PARAM = "enable_compute_interactive_runtime";

    @Test
    void theSubcommandIsRegisteredAndListsTheCatalog() {
        CliRun help = CliRun.of("--help");
        assertThat(help.out()).contains("feature-bench");
        CliRun list = CliRun.of("feature-bench", "--list");
        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(list.out()).contains("PeekDataflowJoin").contains("groups (--root-scenario): ");
    }

    @Test
    void aSameBuildAbShowsTheInteractiveRuntimeDifferingBetweenTheSides(@TempDir Path results) throws Exception {
        CliRun r = CliRun.of("feature-bench", "--scenario", "PeekDataflowJoin", "--scale", "2",
                "--max-measurements", "2", "--runs-per-scenario", "1", "--other-params", PARAM + "=false",
                "--results", results.toString());
        assertThat(r.exitCode()).as(r.out() + r.err())
                .isEqualTo(ExpectedExit.ofFeatureBench(results.resolve(ReportFiles.FEATURE.json()), r.out()));
        assertThat(r.out()).contains("this:  embedded (defaults)")
                .contains("other: embedded, " + PARAM + "=false");
        // the scenario was measured on both sides, not skipped or failed
        assertThat(r.out()).containsPattern("PeekDataflowJoin +wallclock +\\S+ \\(n=\\d+\\) +\\S+ \\(n=\\d+\\) +ms");
        Matcher table = Pattern.compile(PARAM + ": this=(\\S+) other=(\\S+)").matcher(r.out());
        assertThat(table.find()).as(r.out()).isTrue();
        assertThat(table.group(1)).isNotEqualTo(table.group(2));
        assertThat(table.group(2)).isIn("off", "false");

        JsonNode json = new ObjectMapper().readTree(results.resolve(ReportFiles.FEATURE.json()).toFile());
        JsonNode peek = json.path("scenarios").get(0);
        assertThat(peek.path("name").asText()).isEqualTo("PeekDataflowJoin");
        assertThat(peek.path("status").asText()).isIn("PASSED", "REGRESSED");
        String thisValue = peek.path("params").path("this").path(PARAM).asText();
        String otherValue = peek.path("params").path("other").path(PARAM).asText();
        assertThat(thisValue).isNotEmpty().isNotEqualTo(otherValue);
        assertThat(otherValue).isIn("off", "false");
        // read back on every side run, and every sample is in the JSON
        for (JsonNode run : peek.path("runs")) {
            assertThat(run.path("outcome").asText()).isEqualTo("measured");
            assertThat(run.path("effectiveParams").path(PARAM).asText())
                    .isEqualTo(run.path("side").asText().equals("this") ? thisValue : otherValue);
            int samples = run.path("samples").path("wallclock").path("discarded").size()
                    + run.path("samples").path("wallclock").path("kept").size();
            assertThat(samples).isBetween(1, 2);
        }
        assertThat(results.resolve(ReportFiles.FEATURE.html())).exists();
        assertThat(Files.readString(results.resolve(ReportFiles.FEATURE.html()))).contains("<svg ");
        assertThat(results.resolve(ReportFiles.FEATURE.junit())).exists();
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            long id = h.latestFeatureRun("dev").orElseThrow().id();
            assertThat(FeatureHistory.results(h, id)).singleElement()
                    .satisfies(s -> assertThat(s.otherParams()).containsEntry(PARAM, otherValue));
            assertThat(h.latestRun("dev")).isEmpty(); // not a parallel-bench run
        }
    }

    @Test
    void compareToHistoryComparesThisSideWithTheStoredSamplesOfABuild(@TempDir Path results) throws Exception {
        CliRun base = CliRun.of("feature-bench", "--scenario", "QueryLatency", "--max-measurements", "3",
                "--runs-per-scenario", "1", "--other-params", "", "--build", "base", "--results", results.toString());
        assertThat(base.exitCode()).as(base.out() + base.err())
                .isEqualTo(ExpectedExit.ofFeatureBench(results.resolve(ReportFiles.FEATURE.json()), base.out()));
        assertThat(base.out()).contains("note: this and other are the same configuration, so this is an A/A comparison");
        CliRun r = CliRun.of("feature-bench", "--scenario", "QueryLatency", "--max-measurements", "3",
                "--runs-per-scenario", "1", "--compare-to-history", "base", "--results", results.toString());
        assertThat(r.exitCode()).as(r.out() + r.err())
                .isEqualTo(ExpectedExit.ofFeatureBench(results.resolve(ReportFiles.FEATURE.json()), r.out()));
        assertThat(r.out()).contains("other: history:base (run ").contains("  this:  dev (embedded)")
                .contains("  other: base (history:base)");
        // measured now on this side, the stored medians on the other: both columns carry a median
        assertThat(r.out()).containsPattern("QueryLatency +wallclock +\\S+ \\(n=\\d+\\) +\\S+ \\(n=\\d+\\) +ms");
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            var first = h.latestFeatureRun("base").orElseThrow();
            var compared = h.latestFeatureRun("dev").orElseThrow();
            assertThat(compared.id()).isGreaterThan(first.id());
            // recorded as a feature run whose other side is the history; "base" still finds its own run
            assertThat(compared.info().otherSide().build()).isEqualTo("base");
            assertThat(compared.info().otherSide().target()).isEqualTo("history:base");
            assertThat(first.info().otherSide().target()).isEqualTo("embedded");
            var stored = FeatureHistory.thisSide(h, first.id()).get("QueryLatency").thisRuns().get(0);
            var again = FeatureHistory.results(h, compared.id()).get(0);
            assertThat(again.runs()).filteredOn(o -> o.side().equals("other")).singleElement()
                    .satisfies(o -> assertThat(((SideOutcome.Measured) o).run()
                            .samples()).isEqualTo(stored.samples()));
        }
    }
}
