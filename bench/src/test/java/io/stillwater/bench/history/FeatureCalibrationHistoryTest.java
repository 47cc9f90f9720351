package io.stillwater.bench.history;

import static io.stillwater.bench.history.BenchFixtures.LOOKUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.report.FeatureFixtures;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.stats.Stat;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Feature-bench calibrations in the shared calibrations table, beside the parallel bench's. */
class FeatureCalibrationHistoryTest {
    @TempDir
    Path dir;

    @Test
    void featureSpreadsAreStoredReadBackAndReplacedWithoutTouchingParallelOnes() {
        Path file = dir.resolve("h.sqlite");
        Calibration parallel;
        try (HistoryStore store = HistoryStore.open(file)) {
            ScenarioComparison aa = BenchFixtures.twoActions("PeekDataflowJoin", 1.0);
            long parallelRun = ComparisonHistory.record(store, BenchFixtures.runInfo("b", RunMode.CALIBRATE), List.of(aa));
            ComparisonHistory.saveCalibration(store, parallelRun, aa);
            parallel = store.calibration("PeekDataflowJoin", LOOKUP, Stat.P50).orElseThrow();

            long featureRun = FeatureHistory.record(store, FeatureFixtures.info(), FeatureFixtures.scenarios());
            List<Calibration> spreads = FeatureCalibration.spreads(FeatureFixtures.scenarios());
            assertThat(spreads).extracting(Calibration::action).contains("wallclock", "memory_heap");
            store.saveCalibration(featureRun, spreads);
            store.saveCalibration(featureRun, List.of(
                    new Calibration("PeekDataflowJoin", "1.0.0", "wallclock", FeatureCalibration.STAT, 0.07, 0.9, 6)));
        }
        try (HistoryStore store = HistoryStore.open(file)) {
            Calibrations all = store.calibrations();
            Calibration wall = all.find("PeekDataflowJoin", "wallclock", Stat.P50).orElseThrow();
            assertThat(wall.relativeSpread()).isEqualTo(0.07); // the later one replaced the earlier
            assertThat(wall.runs()).isEqualTo(6);
            assertThat(wall.scenarioVersion()).isEqualTo("1.0.0");
            assertThat(all.find("PeekDataflowJoin", "memory_heap", Stat.P50)).isPresent();
            assertThat(store.calibration("PeekDataflowJoin", LOOKUP, Stat.P50)).contains(parallel);
        }
    }
}
