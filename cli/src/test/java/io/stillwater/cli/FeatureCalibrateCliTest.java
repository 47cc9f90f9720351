package io.stillwater.cli;

import java.util.regex.Pattern;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.report.ReportFiles;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stillwater feature-bench --calibrate} in process on the embedded engine: the A/A run records
 * QueryLatency's wallclock spread in the history, and a later normal run shows it beside the
 * threshold.
 */
class FeatureCalibrateCliTest {

    @Test
    void aCalibrationIsRecordedAndALaterRunShowsTheSpreadBesideTheThreshold(@TempDir Path results)
            throws Exception {
        CliRun aa = CliRun.of("feature-bench", "--calibrate", "--scenario", "QueryLatency", "--max-measurements", "3",
                "--runs-per-scenario", "2", "--results", results.toString());
        assertThat(aa.exitCode()).as(aa.out() + aa.err()).isZero();
        assertThat(aa.out()).contains("--calibrate: A/A").contains("SPREAD").contains("spreads measured and recorded");
        Calibration wall;
        try (HistoryStore h = HistoryStore.open(results.resolve("history.sqlite"))) {
            wall = h.calibration("QueryLatency", "wallclock", FeatureCalibration.STAT).orElseThrow();
            assertThat(wall.runs()).isEqualTo(4); // 2 runs on each of the two (identical) sides
            assertThat(wall.relativeSpread()).isGreaterThanOrEqualTo(0);
            assertThat(h.latestRun("dev")).isEmpty(); // still not a parallel-bench run
        }

        CliRun ab = CliRun.of("feature-bench", "--scenario", "QueryLatency", "--max-measurements", "3",
                "--runs-per-scenario", "1", "--other-params", "", "--results", results.toString());
        assertThat(ab.exitCode()).as(ab.out() + ab.err())
                .isEqualTo(ExpectedExit.ofFeatureBench(results.resolve(ReportFiles.FEATURE.json()), ab.out()));
        String spread = "+-" + percent(wall.relativeSpread());
        assertThat(ab.out()).containsPattern("THRESHOLD +SPREAD +VERDICT");
        assertThat(ab.out()).containsPattern("QueryLatency +wallclock .* 10% +" + Pattern.quote(spread));
        assertThat(ab.out().contains("! threshold tighter than twice"))
                .isEqualTo(0.10 < 2 * wall.relativeSpread());
        JsonNode json = new ObjectMapper().readTree(results.resolve(ReportFiles.FEATURE.json()).toFile());
        JsonNode verdict = json.path("scenarios").get(0).path("verdicts").get(0);
        assertThat(verdict.path("metric").asText()).isEqualTo("wallclock");
        assertThat(verdict.path("spread").path("relative").asDouble()).isEqualTo(wall.relativeSpread());
    }

    /** As the table prints a fraction: one decimal, ".0" dropped. */
    private static String percent(double fraction) {
        String s = String.format(Locale.ROOT, "%.1f", fraction * 100);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + "%";
    }
}
