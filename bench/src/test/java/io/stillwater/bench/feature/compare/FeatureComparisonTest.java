package io.stillwater.bench.feature.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.feature.scenario.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class FeatureComparisonTest {

    private static MetricVerdict wall(List<Double> thisKept, List<Double> otherKept) {
        return FeatureComparison.compare(Metric.WALLCLOCK, thisKept, otherKept, 0.10);
    }

    @Test
    void regressionAboveTheThreshold() {
        MetricVerdict v = wall(List.of(112.0, 111.0, 113.0), List.of(100.0, 99.0, 101.0));
        assertThat(v.outcome()).isEqualTo(FeatureOutcome.REGRESSION);
        assertThat(v.text()).isEqualTo("12% slower");
        assertThat(v.thisMedian()).isEqualTo(112);
        assertThat(v.otherMedian()).isEqualTo(100);
        assertThat(v.thisSamples()).isEqualTo(3);
        assertThat(v.threshold()).isEqualTo(0.10);
        assertThat(v.ratio()).isEqualTo(1.12);
    }

    @Test
    void improvementWhenOtherIsSlowerBeyondTheThreshold() {
        MetricVerdict v = wall(List.of(10.0), List.of(31.0));
        assertThat(v.outcome()).isEqualTo(FeatureOutcome.IMPROVEMENT);
        assertThat(v.text()).isEqualTo("3.1 times faster");
    }

    @Test
    void exactlyAtTheThresholdIsWithinEitherWay() {
        assertThat(wall(List.of(110.0), List.of(100.0)).outcome()).isEqualTo(FeatureOutcome.WITHIN);
        assertThat(wall(List.of(110.0), List.of(100.0)).text()).isEqualTo("within 10% (10% slower)");
        assertThat(wall(List.of(100.0), List.of(110.0)).outcome()).isEqualTo(FeatureOutcome.WITHIN);
        assertThat(wall(List.of(100.0), List.of(110.0)).text()).isEqualTo("within 10% (10% faster)");
        // the smallest step beyond it is not
        assertThat(wall(List.of(110.01), List.of(100.0)).outcome()).isEqualTo(FeatureOutcome.REGRESSION);
        assertThat(wall(List.of(100.0), List.of(110.01)).outcome()).isEqualTo(FeatureOutcome.IMPROVEMENT);
        // and for memory's 20%, for a scenario's own 12.5%
        assertThat(FeatureComparison.compare(Metric.MEMORY_HEAP, List.of(120.0), List.of(100.0), 0.2).outcome())
                .isEqualTo(FeatureOutcome.WITHIN);
        assertThat(FeatureComparison.compare(Metric.WALLCLOCK, List.of(112.5), List.of(100.0), 0.125).text())
                .isEqualTo("within 12.5% (13% slower)");
    }

    @Test
    void withinTextSaysHowMuch() {
        assertThat(wall(List.of(103.0), List.of(100.0)).text()).isEqualTo("within 10% (3% slower)");
        assertThat(wall(List.of(100.0), List.of(100.0)).text()).isEqualTo("within 10% (the same)");
        assertThat(wall(List.of(100.4), List.of(100.0)).text()).isEqualTo("within 10% (0.4% slower)");
    }

    @Test
    void theMedianIsOfAllSamplesPooledNotTheBestRun() {
        // run 1 regressed (120s), run 2 looked fine (100s), run 3 regressed: pooled median regresses
        List<Double> thisRuns = List.of(120.0, 121.0, 119.0, 100.0, 101.0, 99.0, 122.0, 120.0, 118.0);
        List<Double> otherRuns = List.of(100.0, 100.0, 100.0, 101.0, 99.0, 100.0, 100.0, 100.0, 100.0);
        MetricVerdict v = wall(thisRuns, otherRuns);
        assertThat(v.thisMedian()).isEqualTo(119.0);
        assertThat(v.outcome()).isEqualTo(FeatureOutcome.REGRESSION);
        assertThat(v.thisSamples()).isEqualTo(9);
    }

    @Test
    void notComparedWhenOneSideHasNoSamples() {
        MetricVerdict v = FeatureComparison.compare(Metric.MEMORY_RSS, List.of(300.0), List.of(), 0.2);
        assertThat(v.outcome()).isEqualTo(FeatureOutcome.NOT_COMPARED);
        assertThat(v.text()).isEqualTo("not measured on other");
        assertThat(v.otherMedian()).isNaN();
        assertThat(v.ratio()).isNaN();
        assertThat(FeatureComparison.compare(Metric.MEMORY_RSS, List.of(), List.of(300.0), 0.2).text())
                .isEqualTo("not measured on this");
        assertThat(FeatureComparison.compare(Metric.MEMORY_RSS, List.of(), List.of(), 0.2).text())
                .isEqualTo("not measured on either side");
    }

    @Test
    void aZeroMedianDoesNotDivideByZero() {
        MetricVerdict worse = FeatureComparison.compare(Metric.MEMORY_HEAP, List.of(12.5), List.of(0.0), 0.2);
        assertThat(worse.outcome()).isEqualTo(FeatureOutcome.REGRESSION);
        assertThat(worse.text()).isEqualTo("more memory: 12.5 MiB against 0 MiB");
        MetricVerdict better = FeatureComparison.compare(Metric.WALLCLOCK, List.of(0.0), List.of(3.0), 0.1);
        assertThat(better.outcome()).isEqualTo(FeatureOutcome.IMPROVEMENT);
        assertThat(better.text()).isEqualTo("faster: 0 ms against 3 ms");
        MetricVerdict same = FeatureComparison.compare(Metric.MEMORY_HEAP, List.of(0.0), List.of(0.0), 0.2);
        assertThat(same.outcome()).isEqualTo(FeatureOutcome.WITHIN);
        assertThat(same.text()).isEqualTo("within 20% (the same)");
    }

    @Test
    void badInputIsRejected() {
        assertThatThrownBy(() -> wall(List.of(-1.0), List.of(1.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wallclock on this: a sample is -1.0");
        assertThatThrownBy(() -> FeatureComparison.compare(Metric.WALLCLOCK, List.of(1.0), List.of(1.0), -0.1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threshold");
    }

    @Test
    void describeRoundsSensibly() {
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1.0)).isEqualTo("the same");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1.0004)).isEqualTo("the same");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1.004)).isEqualTo("0.4% slower");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1.123)).isEqualTo("12% slower");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1 / 1.5)).isEqualTo("50% faster");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1.99)).isEqualTo("99% slower");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 2.0)).isEqualTo("2.0 times slower");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 1 / 3.1)).isEqualTo("3.1 times faster");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, 25.3)).isEqualTo("25 times slower");
        assertThat(FeatureComparison.describe(Metric.MEMORY_HEAP, 1.04)).isEqualTo("4% more memory");
        assertThat(FeatureComparison.describe(Metric.MEMORY_RSS, 1 / 1.3)).isEqualTo("30% less memory");
        assertThat(FeatureComparison.describe(Metric.MEMORY_HEAP, 2.5)).isEqualTo("2.5 times the memory");
        assertThat(FeatureComparison.describe(Metric.MEMORY_HEAP, 0.25)).isEqualTo("4.0 times less memory");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, Double.POSITIVE_INFINITY)).isEqualTo("infinitely slower");
        assertThat(FeatureComparison.describe(Metric.WALLCLOCK, Double.NaN)).isEqualTo("not comparable");
    }
}
