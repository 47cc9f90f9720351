package io.stillwater.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.scenarios.Read;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CalibrationTest {
    private static final String ACTION = "SELECT 1 (reuse connection)";

    private static ScenarioResult run(ScenarioResult.Status status, double qps, double avg) {
        var s = new ActionStatistics(ACTION, 100, 0, 0, qps, 1, 9, avg, avg, avg, avg, avg, 1, 0, 10, Map.of());
        return new ScenarioResult("Read", "1.0.0", status, status == ScenarioResult.Status.COMPLETED ? "" : "boom",
                status == ScenarioResult.Status.COMPLETED ? Map.of(ACTION, s) : Map.of(), Map.of(), List.of(),
                List.of(), List.of(), List.of());
    }

    @Test
    void spreadIsMaxOverMinOfEveryCompletedRunOfBothHalves() {
        var aa = new ScenarioComparison("Read",
                List.of(run(ScenarioResult.Status.COMPLETED, 100, 10), run(ScenarioResult.Status.COMPLETED, 90, 11)),
                List.of(run(ScenarioResult.Status.COMPLETED, 120, 8), run(ScenarioResult.Status.FAILED, 1, 1000)),
                List.of(), List.of());
        List<Calibration> cals = Calibration.of(aa, new Read().definition());
        Calibration qps = cals.stream().filter(c -> c.stat() == Stat.QPS).findFirst().orElseThrow();
        assertThat(qps.runs()).isEqualTo(3); // the failed run is not a sample
        assertThat(qps.min()).isEqualTo(90);
        assertThat(qps.max()).isEqualTo(120);
        assertThat(qps.median()).isEqualTo(100);
        assertThat(qps.spread()).isEqualTo(120.0 / 90);
        assertThat(qps.threshold()).isEqualTo(Threshold.ratio(1.2));
        assertThat(qps.version()).isEqualTo("1.0.0");
        Calibration avg = cals.stream().filter(c -> c.stat() == Stat.AVG).findFirst().orElseThrow();
        assertThat(avg.spread()).isEqualTo(11.0 / 8);
        Calibration slope = cals.stream().filter(c -> c.stat() == Stat.SLOPE).findFirst().orElseThrow();
        assertThat(slope.spread()).isNaN(); // min 0: no ratio
        assertThat(slope.tighterThanNoise()).isFalse();
        // qps spread 33%: a 1.2 gate is tighter than twice that; avg spread 37.5% likewise
        assertThat(qps.tighterThanNoise()).isTrue();
        assertThat(avg.tighterThanNoise()).isTrue();
    }

    @Test
    void aThresholdWiderThanTwiceTheSpreadIsNotFlagged() {
        var quiet = new ScenarioComparison("Read",
                List.of(run(ScenarioResult.Status.COMPLETED, 100, 10)),
                List.of(run(ScenarioResult.Status.COMPLETED, 105, 10.4)), List.of(), List.of());
        List<Calibration> cals = Calibration.of(quiet, new Read().definition());
        assertThat(cals).filteredOn(c -> c.stat() == Stat.QPS || c.stat() == Stat.AVG).hasSize(2)
                .noneMatch(Calibration::tighterThanNoise);
    }
}
