package io.stillwater.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The one calibration: spreads of an A/A comparison and the "tighter than twice the noise" flag. */
class CalibrationTest {
    private static final String ACTION = "SELECT 1 (reuse connection)";

    private static ScenarioResult run(ScenarioResult.Status status, double qps, double avg) {
        var s = new ActionStatistics(ACTION, 100, 0, 0, qps, 1, 9, avg, avg, avg, avg, avg, 1, 0, 10, Map.of());
        return new ScenarioResult("Read", "1.0.0", status, status == ScenarioResult.Status.COMPLETED ? "" : "boom",
                status == ScenarioResult.Status.COMPLETED ? Map.of(ACTION, s) : Map.of(), Map.of(), List.of(),
                List.of(), List.of(), List.of());
    }

    @Test
    void spreadIsOverEveryCompletedRunOfBothHalves() {
        var aa = new ScenarioComparison("Read",
                List.of(run(ScenarioResult.Status.COMPLETED, 100, 10), run(ScenarioResult.Status.COMPLETED, 90, 11)),
                List.of(run(ScenarioResult.Status.COMPLETED, 120, 8), run(ScenarioResult.Status.FAILED, 1, 1000),
                        run(ScenarioResult.Status.INVALID, 1, 1000)),
                List.of(), List.of());
        List<Calibration> cals = ComparisonHistory.calibrations(aa);
        Calibration qps = cals.stream().filter(c -> c.stat() == Stat.QPS).findFirst().orElseThrow();
        assertThat(qps.runs()).isEqualTo(3); // failed and invalid runs are not samples
        assertThat(qps.relativeSpread()).isCloseTo(120.0 / 90 - 1, Offset.offset(1e-12));
        assertThat(qps.absoluteSpread()).isEqualTo(30);
        assertThat(qps.scenarioVersion()).isEqualTo("1.0.0");
        Calibration avg = cals.stream().filter(c -> c.stat() == Stat.AVG).findFirst().orElseThrow();
        assertThat(avg.relativeSpread()).isCloseTo(11.0 / 8 - 1, Offset.offset(1e-12));
        // qps spread 33%: a 1.2 gate is tighter than twice that; avg spread 37.5% likewise
        assertThat(qps.tighterThanNoise(Threshold.ratio(1.2))).isTrue();
        assertThat(avg.tighterThanNoise(Threshold.ratio(1.2))).isTrue();
        assertThat(avg.tighterThanNoise(Threshold.ratio(2.0))).isFalse();
        assertThat(avg.tighterThanNoise(Threshold.UNGATED)).isFalse();
    }

    @Test
    void aThresholdWiderThanTwiceTheSpreadIsNotFlagged() {
        var quiet = new ScenarioComparison("Read",
                List.of(run(ScenarioResult.Status.COMPLETED, 100, 10)),
                List.of(run(ScenarioResult.Status.COMPLETED, 105, 10.4)), List.of(), List.of());
        List<Calibration> cals = ComparisonHistory.calibrations(quiet);
        assertThat(cals).filteredOn(c -> c.stat() == Stat.QPS || c.stat() == Stat.AVG).hasSize(2)
                .noneMatch(c -> c.tighterThanNoise(Threshold.ratio(1.2)));
    }

    @Test
    void oneRunHasNoSpread() {
        var single = new ScenarioComparison("Read", List.of(run(ScenarioResult.Status.COMPLETED, 100, 10)),
                List.of(), List.of(), List.of());
        assertThat(ComparisonHistory.calibrations(single)).isEmpty();
    }
}
