package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The calibrated spread beside each threshold, the noisy flag and its legend, in every format. */
class FeatureCalibrationReportTest {
    /** PeekDataflowJoin (version 1.0.0): wallclock threshold 10% vs spread 6% (tighter than 2x), heap 20% vs 3%. */
    private static FeatureReport calibrated() {
        return FeatureFixtures.report().withCalibrations(Calibrations.of(List.of(
                new Calibration("PeekDataflowJoin", "1.0.0", "wallclock", FeatureCalibration.STAT, 0.06, 0.7, 4),
                new Calibration("PeekDataflowJoin", "1.0.0", "memory_heap", FeatureCalibration.STAT, 0.03, 3, 4))),
                false);
    }

    @Test
    void theTableShowsTheSpreadBesideTheThresholdAndFlagsOneTighterThanTwiceIt() {
        String t = FeatureTerminalTable.render(calibrated());
        assertThat(t).containsPattern("THRESHOLD +SPREAD +VERDICT");
        assertThat(t).containsPattern("PeekDataflowJoin +wallclock .* 10% +\\+-6% ! +REGRESSION");
        assertThat(t).containsPattern("memory_heap .* 20% +\\+-3% +ok");
        assertThat(t).contains(FeatureText.NOISY_LEGEND);
        assertThat(t).doesNotContain("A/A calibration");
    }

    @Test
    void noCalibrationNoColumnAndACalibrationOfAnotherVersionIsNotShown() {
        assertThat(FeatureTerminalTable.render(FeatureFixtures.report())).doesNotContain("SPREAD")
                .doesNotContain(FeatureText.NOISY_LEGEND);
        FeatureReport other = FeatureFixtures.report().withCalibrations(Calibrations.of(List.of(
                new Calibration("PeekDataflowJoin", "0.9.0", "wallclock", FeatureCalibration.STAT, 0.5, 5, 4))), false);
        assertThat(FeatureTerminalTable.render(other)).doesNotContain("SPREAD").doesNotContain("+-50%");
        assertThat(other.anyTighterThanNoise()).isFalse();
    }

    @Test
    void theJsonAndHtmlCarryTheSpreadAndTheFlag() throws Exception {
        FeatureReport r = calibrated();
        JsonNode json = new ObjectMapper().readTree(FeatureJsonReport.render(r));
        JsonNode wall = json.path("scenarios").get(0).path("verdicts").get(0);
        assertThat(wall.path("metric").asText()).isEqualTo("wallclock");
        assertThat(wall.path("spread").path("relative").asDouble()).isEqualTo(0.06);
        assertThat(wall.path("spread").path("runs").asInt()).isEqualTo(4);
        assertThat(wall.path("tighterThanNoise").asBoolean()).isTrue();
        assertThat(json.path("scenarios").get(0).path("verdicts").get(1).path("tighterThanNoise").asBoolean())
                .isFalse();
        assertThat(json.path("scenarios").get(1).path("verdicts").get(0).path("spread").isNull()).isTrue();
        assertThat(json.path("run").path("calibration").asBoolean()).isFalse();
        String html = FeatureHtmlReport.render(r);
        assertThat(html).contains("<th>calibrated spread</th>").contains("&plusmn;6%").contains("&#9888; noisy");
    }

    @Test
    void aCalibrationRunSaysWhatItMeasuredAndRecordsAndARegressionIsNotAFailure() {
        List<Calibration> measured = FeatureCalibration.spreads(FeatureFixtures.scenarios());
        FeatureReport r = FeatureFixtures.report().withCalibrations(Calibrations.of(measured), true);
        String t = FeatureTerminalTable.render(r);
        assertThat(t).startsWith("stillwater feature-bench --calibrate (A/A): 4 scenarios, 2 runs per side for every scenario");
        assertThat(t).contains(FeatureText.CALIBRATING_LEGEND);
        assertThat(t).containsPattern("PeekDataflowJoin +wallclock .* 10% +\\+-\\S+%");
        assertThat(t).contains("A/A calibration, 4 scenarios").contains(measured.size() + " spreads measured and recorded");
        assertThat(t).contains("2 runs per side, both sides the same configuration (A/A)");
        // the fixture has a failed scenario: that still fails the run; the "regression" alone would not
        assertThat(r.failed()).isTrue();
        FeatureReport noFailure = new FeatureReport(r.info(), List.of(FeatureFixtures.regressed()), 12, "", 7,
                r.calibrations(), true);
        assertThat(noFailure.failed()).isFalse();
        assertThat(new FeatureReport(r.info(), List.of(FeatureFixtures.regressed()), 12, "", 7).failed()).isTrue();
        assertThat(FeatureJunitReport.render(noFailure)).doesNotContain("<failure");
        assertThat(FeatureJunitReport.render(noFailure.withCalibrations(r.calibrations(), false))).contains("<failure");
    }
}
