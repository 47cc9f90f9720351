package io.stillwater.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictsTest {

    @Test
    void higherIsWorseStatsRegressAboveOtherTimesFactor() {
        assertThat(Verdicts.compare("q", Stat.AVG, 1.25, 1.0, Threshold.ratio(1.2)).outcome())
                .isEqualTo(Outcome.REGRESSION);
        assertThat(Verdicts.compare("q", Stat.AVG, 1.19, 1.0, Threshold.ratio(1.2)).outcome()).isEqualTo(Outcome.OK);
        assertThat(Verdicts.compare("q", Stat.AVG, 0.5, 1.0, Threshold.ratio(1.2)).outcome()).isEqualTo(Outcome.OK);
    }

    @Test
    void qpsRegressesBelowOtherDividedByFactor() {
        assertThat(Verdicts.compare("q", Stat.QPS, 80, 100, Threshold.ratio(1.2)).outcome())
                .isEqualTo(Outcome.REGRESSION);
        assertThat(Verdicts.compare("q", Stat.QPS, 84, 100, Threshold.ratio(1.2)).outcome()).isEqualTo(Outcome.OK);
        assertThat(Verdicts.compare("q", Stat.QPS, 500, 100, Threshold.ratio(1.2)).outcome()).isEqualTo(Outcome.OK);
    }

    @Test
    void errorRateIsGatedOnAbsoluteIncrease() {
        Threshold t = Thresholds.DEFAULT.of(Stat.ERROR_RATE);
        assertThat(Verdicts.compare("q", Stat.ERROR_RATE, 0.02, 0.0, t).outcome()).isEqualTo(Outcome.REGRESSION);
        assertThat(Verdicts.compare("q", Stat.ERROR_RATE, 0.005, 0.0, t).outcome()).isEqualTo(Outcome.OK);
    }

    @Test
    void ungatedStatsAreReportedNeverRegress() {
        StatVerdict v = Verdicts.compare("q", Stat.P99, 100, 1, Threshold.UNGATED);
        assertThat(v.outcome()).isEqualTo(Outcome.UNGATED);
        assertThat(v.change()).isEqualTo(99.0);
    }

    @Test
    void ratioThresholdsMustExceedOne() {
        assertThatThrownBy(() -> Threshold.ratio(1.0)).hasMessageContaining("UNGATED");
        assertThatThrownBy(() -> Threshold.ratio(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachSideIsItsMedianSoOneOutlierNeitherHidesNorInventsARegression() {
        Function3 run = avg -> Map.of("q", stats("q", avg, 100));
        List<Map<String, ActionStatistics>> other = List.of(run.of(1.0), run.of(1.0), run.of(1.0));
        // one slow run of this: median 1.0, not a regression
        List<StatVerdict> v = Verdicts.compare(List.of(run.of(1.0), run.of(5.0), run.of(1.0)), other,
                a -> Thresholds.DEFAULT);
        assertThat(avg(v).thisValue()).isEqualTo(1.0);
        assertThat(Verdicts.anyRegression(v)).isFalse();
        // two of three slow: best-of-N would pass on the 1.0 run; the median regresses
        v = Verdicts.compare(List.of(run.of(1.5), run.of(1.0), run.of(1.5)), other, a -> Thresholds.DEFAULT);
        assertThat(avg(v).outcome()).isEqualTo(Outcome.REGRESSION);
        assertThat(avg(v).thisValue()).isEqualTo(1.5);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(Verdicts.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Verdicts.median(new double[] {})).isNaN();
    }

    @Test
    void anActionMissingOnOneSideGivesNoDataRows() {
        List<StatVerdict> v = Verdicts.compare(List.of(Map.of("new", stats("new", 1, 10))), List.of(Map.of()),
                a -> Thresholds.DEFAULT);
        assertThat(v).hasSize(Stat.values().length);
        assertThat(avg(v).outcome()).isEqualTo(Outcome.NO_DATA);
    }

    @Test
    void runsInterleaveTheSides() {
        assertThat(Side.interleaved(3)).containsExactly(Side.THIS, Side.OTHER, Side.THIS, Side.OTHER, Side.THIS,
                Side.OTHER);
    }

    @Test
    void guaranteesBoundQpsFromBelowAndLatencyFromAbove() {
        ActionStatistics s = stats("q", 50, 90);
        assertThat(new Guarantee(Stat.QPS, 100).check(s)).isPresent();
        assertThat(new Guarantee(Stat.QPS, 80).check(s)).isEmpty();
        assertThat(new Guarantee(Stat.P99, 200).check(stats("q", 250, 90))).isPresent();
        assertThat(new Guarantee(Stat.P99, 200).check(s)).isEmpty();
        ActionStatistics none = stats("q", Double.NaN, 0);
        assertThat(new Guarantee(Stat.P99, 200).check(none)).get().extracting(GuaranteeViolation::actual)
                .isEqualTo(Double.NaN);
    }

    private interface Function3 {
        Map<String, ActionStatistics> of(double avg);
    }

    private static StatVerdict avg(List<StatVerdict> v) {
        return v.stream().filter(x -> x.stat() == Stat.AVG).findFirst().orElseThrow();
    }

    /** Latency stats all equal to {@code latency}. */
    private static ActionStatistics stats(String action, double latency, double qps) {
        return new ActionStatistics(action, 100, 0, 0, qps, latency, latency, latency, latency, latency, latency,
                latency, 0, 0, 1, Map.of());
    }
}
