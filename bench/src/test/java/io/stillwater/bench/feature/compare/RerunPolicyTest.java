package io.stillwater.bench.feature.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class RerunPolicyTest {
    private static final MetricVerdict WALL_REGRESSED =
            FeatureComparison.compare(Metric.WALLCLOCK, List.of(130.0), List.of(100.0), 0.1);
    private static final MetricVerdict WALL_WITHIN =
            FeatureComparison.compare(Metric.WALLCLOCK, List.of(101.0), List.of(100.0), 0.1);
    private static final MetricVerdict HEAP_REGRESSED =
            FeatureComparison.compare(Metric.MEMORY_HEAP, List.of(200.0), List.of(100.0), 0.2);
    private static final MetricVerdict HEAP_IMPROVED =
            FeatureComparison.compare(Metric.MEMORY_HEAP, List.of(50.0), List.of(100.0), 0.2);
    private static final MetricVerdict RSS_NOT_COMPARED =
            FeatureComparison.compare(Metric.MEMORY_RSS, List.of(50.0), List.of(), 0.2);

    @Test
    void aFirstRunRegressionInAnyMetricRunsAgainUntilRunsPerScenario() {
        RerunPolicy p = new RerunPolicy(3);
        List<MetricVerdict> first = List.of(WALL_WITHIN, HEAP_REGRESSED, RSS_NOT_COMPARED);
        assertThat(p.anotherRun(1, first)).isTrue();
        assertThat(p.anotherRun(2, first)).isTrue();
        assertThat(p.anotherRun(3, first)).isFalse();
        assertThat(p.anotherRun(1, List.of(WALL_REGRESSED))).isTrue();
    }

    @Test
    void noRegressionInTheFirstRunMeansNoReRun() {
        RerunPolicy p = new RerunPolicy(5);
        assertThat(p.anotherRun(1, List.of(WALL_WITHIN, HEAP_IMPROVED, RSS_NOT_COMPARED))).isFalse();
        assertThat(p.anotherRun(1, List.of())).isFalse();
    }

    @Test
    void oneRunPerScenarioNeverReRuns() {
        assertThat(new RerunPolicy(1).anotherRun(1, List.of(WALL_REGRESSED))).isFalse();
    }

    @Test
    void invalidCountsAreRejected() {
        assertThatThrownBy(() -> new RerunPolicy(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--runs-per-scenario must be at least 1, got 0");
        assertThatThrownBy(() -> new RerunPolicy(3).anotherRun(0, List.of(WALL_REGRESSED)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
