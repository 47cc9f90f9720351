package io.stillwater.bench.feature.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MedianIntervalTest {

    @Test
    void sixSamplesAt95PercentSpanTheWholeRange() {
        MedianInterval i = MedianInterval.of(List.of(14.0, 10.0, 12.0, 11.0, 15.0, 13.0), 0.95).orElseThrow();
        assertThat(i).isEqualTo(new MedianInterval(10, 12.5, 15, 0.96875));
        assertThat(i.relativeWidth()).isEqualTo(5 / 12.5);
    }

    @Test
    void fiveSamplesAreTooFewAt95Percent() {
        assertThat(MedianInterval.of(List.of(1.0, 2.0, 3.0, 4.0, 5.0), 0.95)).isEmpty();
        // but enough at 90%: 1 - 2/32 = 0.9375
        assertThat(MedianInterval.of(List.of(1.0, 2.0, 3.0, 4.0, 5.0), 0.90).orElseThrow())
                .isEqualTo(new MedianInterval(1, 3, 5, 0.9375));
    }

    @Test
    void knownRanksFromTheBinomialTable() {
        // n = 10 at 95%: k = 2, coverage 1 - 2 * (1 + 10) / 1024 = 0.978515625
        assertThat(MedianInterval.lowerRank(10, 0.95)).hasValue(2);
        assertThat(MedianInterval.coverage(10, 2)).isEqualTo(0.978515625);
        // n = 20 at 95%: ranks 6 and 15, coverage 1 - 2 * (C(20,0) + ... + C(20,5)) / 2^20 = 0.9586...
        assertThat(MedianInterval.lowerRank(20, 0.95)).hasValue(6);
        assertThat(MedianInterval.coverage(20, 6)).isEqualTo(1 - 2.0 * (1 + 20 + 190 + 1140 + 4845 + 15504) / (1 << 20));
        assertThat(MedianInterval.coverage(20, 7)).isLessThan(0.95);
        // the boundary is exact: asking for precisely the coverage of k = 1 at n = 6 still gets it
        assertThat(MedianInterval.lowerRank(6, 0.96875)).hasValue(1);
        assertThat(MedianInterval.lowerRank(6, Math.nextUp(0.96875))).isEmpty();
    }

    @Test
    void largeCountsStayExact() {
        List<Double> samples = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            samples.add((double) i);
        }
        MedianInterval i = MedianInterval.of(samples, 0.95).orElseThrow();
        assertThat(i.coverage()).isBetween(0.95, 0.96);
        // about median +- 1.96 * sqrt(n) / 2 ranks
        assertThat(i.upper() - i.lower()).isBetween(100.0, 115.0);
    }

    @Test
    void median() {
        assertThat(MedianInterval.median(List.of())).isNaN();
        assertThat(MedianInterval.median(List.of(3.0))).isEqualTo(3);
        assertThat(MedianInterval.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2);
        assertThat(MedianInterval.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThatThrownBy(() -> MedianInterval.median(List.of(1.0, Double.NaN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 2 of 2 is NaN");
    }

    @Test
    void relativeWidthAtAZeroMedian() {
        assertThat(new MedianInterval(0, 0, 0, 0.97).relativeWidth()).isZero();
        assertThat(new MedianInterval(0, 0, 1, 0.97).relativeWidth()).isInfinite();
    }
}
