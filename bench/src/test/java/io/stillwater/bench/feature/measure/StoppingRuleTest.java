package io.stillwater.bench.feature.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoppingRuleTest {
    private static final MeasurementPolicy POLICY = MeasurementPolicy.DEFAULT; // 2 warm-up, 6 kept, 20 max, 95%, 10%
    private static final StoppingRule RULE = new StoppingRule(POLICY);

    private static MetricSeries series(Metric metric, double... samples) {
        return series(POLICY, metric, samples);
    }

    private static MetricSeries series(MeasurementPolicy policy, Metric metric, double... samples) {
        MetricSeries s = new MetricSeries(metric, policy.effectiveWarmup());
        for (double v : samples) {
            s.add(v);
        }
        return s;
    }

    @Test
    void stopsConfidentOnceEveryMetricHasANarrowInterval() {
        // warm-up 500, 400 discarded; kept 100..104 and 102: interval [100, 104], 4 / 101.5 < 10%
        MetricSeries wall = series(Metric.WALLCLOCK, 500, 400, 100, 101, 102, 103, 104, 102);
        MetricSeries heap = series(Metric.MEMORY_HEAP, 900, 50, 50, 51, 50, 52, 50, 51);
        assertThat(RULE.decide(8, List.of(wall, heap))).contains(StopReason.CONFIDENT);
    }

    @Test
    void warmUpSamplesNeverCount() {
        // six samples in all, but two are warm-up: only four kept, fewer than minKept
        MetricSeries wall = series(Metric.WALLCLOCK, 100, 100, 100, 100, 100, 100);
        assertThat(wall.kept()).hasSize(4);
        assertThat(RULE.decide(6, List.of(wall))).isEmpty();
        // a wild warm-up sample does not widen the interval
        MetricSeries wild = series(Metric.WALLCLOCK, 10_000, 1, 100, 100, 100, 100, 100, 100);
        assertThat(RULE.decide(8, List.of(wild))).contains(StopReason.CONFIDENT);
    }

    @Test
    void aWideIntervalOnAnyMetricKeepsMeasuring() {
        MetricSeries wall = series(Metric.WALLCLOCK, 1, 1, 100, 101, 102, 103, 104, 102);
        MetricSeries noisyHeap = series(Metric.MEMORY_HEAP, 1, 1, 50, 80, 50, 60, 50, 70);
        assertThat(RULE.decide(8, List.of(wall, noisyHeap))).isEmpty();
    }

    @Test
    void theMaximumStopsWhateverTheSamples() {
        MetricSeries noisy = series(Metric.WALLCLOCK, 1, 1, 10, 100, 1000, 10, 100, 1000);
        assertThat(RULE.decide(19, List.of(noisy))).isEmpty();
        assertThat(RULE.decide(20, List.of(noisy))).contains(StopReason.MAX_MEASUREMENTS);
        assertThat(RULE.decide(21, List.of(noisy))).contains(StopReason.MAX_MEASUREMENTS);
        assertThat(new StoppingRule(POLICY.withMaxMeasurements(3)).decide(3, List.of(series(Metric.WALLCLOCK, 1, 2, 3))))
                .contains(StopReason.MAX_MEASUREMENTS);
    }

    @Test
    void aMetricWithNoSamplesDoesNotBlockButOneWarmingUpDoes() {
        MetricSeries wall = series(Metric.WALLCLOCK, 1, 1, 100, 101, 102, 103, 104, 102);
        MetricSeries rssNotExposed = series(Metric.MEMORY_RSS);
        assertThat(RULE.decide(8, List.of(wall, rssNotExposed))).contains(StopReason.CONFIDENT);
        MetricSeries heapWarmingUp = series(Metric.MEMORY_HEAP, 50);
        assertThat(RULE.decide(8, List.of(wall, heapWarmingUp))).isEmpty();
    }

    @Test
    void nothingMeasuredNeverStopsConfident() {
        assertThat(RULE.decide(5, List.of(series(Metric.WALLCLOCK)))).isEmpty();
        assertThat(RULE.decide(5, List.of())).isEmpty();
    }

    @Test
    void aMinKeptBelowWhatTheIntervalNeedsStillWaitsForTheInterval() {
        MeasurementPolicy policy = new MeasurementPolicy(0, 1, 20, 0.95, 0.10);
        StoppingRule eager = new StoppingRule(policy);
        // five equal samples: a zero-width spread, but five cannot reach 95% coverage
        assertThat(eager.decide(5, List.of(series(policy, Metric.WALLCLOCK, 5, 5, 5, 5, 5)))).isEmpty();
        assertThat(eager.decide(6, List.of(series(policy, Metric.WALLCLOCK, 5, 5, 5, 5, 5, 5))))
                .contains(StopReason.CONFIDENT);
    }
}
