package io.stillwater.bench.feature.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class MedianIntervalProperties {

    /** The confidence levels people ask for, plus awkward ones. */
    @Provide
    Arbitrary<Double> confidences() {
        return Arbitraries.oneOf(Arbitraries.of(0.5, 0.8, 0.9, 0.95, 0.96875, 0.99, 0.999),
                Arbitraries.doubles().between(0.01, 0.999).ofScale(4));
    }

    /** Reference model: binomial(n, 1/2) probabilities summed in doubles, term by term from the pmf. */
    private static double binomialCoverage(int n, int k) {
        double inside = 0;
        for (int i = k; i <= n - k; i++) {
            double logPmf = -n * Math.log(2);
            for (int j = 1; j <= i; j++) {
                logPmf += Math.log(n - i + j) - Math.log(j);
            }
            inside += Math.exp(logPmf);
        }
        return inside;
    }

    @Property(tries = 300)
    void theIntervalHoldsTheMedianWithAtLeastTheAskedCoverage(
            @ForAll @Size(min = 1, max = 200) List<@DoubleRange(min = 0, max = 1e6) Double> samples,
            @ForAll("confidences") double confidence) {
        Optional<MedianInterval> interval = MedianInterval.of(samples, confidence);
        OptionalInt rank = MedianInterval.lowerRank(samples.size(), confidence);
        assertThat(interval.isPresent()).isEqualTo(rank.isPresent());
        interval.ifPresent(i -> {
            List<Double> sorted = new ArrayList<>(samples);
            sorted.sort(null);
            int n = sorted.size();
            int k = rank.getAsInt();
            assertThat(i.median()).isEqualTo(MedianInterval.median(samples));
            assertThat(i.lower()).isLessThanOrEqualTo(i.median());
            assertThat(i.median()).isLessThanOrEqualTo(i.upper());
            assertThat(i.lower()).isEqualTo(sorted.get(k - 1));
            assertThat(i.upper()).isEqualTo(sorted.get(n - k));
            assertThat(i.coverage()).isGreaterThanOrEqualTo(confidence);
            assertThat(i.coverage()).isCloseTo(binomialCoverage(n, k), within(1e-9));
            assertThat(i.relativeWidth()).isGreaterThanOrEqualTo(0);
        });
    }

    @Property(tries = 300)
    void theRankIsTheLargestThatReachesTheConfidence(@ForAll @IntRange(min = 1, max = 400) int n,
            @ForAll("confidences") double confidence) {
        OptionalInt rank = MedianInterval.lowerRank(n, confidence);
        if (rank.isEmpty()) {
            // even the widest interval, the whole range, falls short
            assertThat(n == 1 || binomialCoverage(n, 1) < confidence + 1e-12).isTrue();
            return;
        }
        int k = rank.getAsInt();
        assertThat(2 * k).isLessThanOrEqualTo(n);
        assertThat(MedianInterval.coverage(n, k)).isGreaterThanOrEqualTo(confidence);
        if (2 * (k + 1) <= n) {
            assertThat(binomialCoverage(n, k + 1)).isLessThan(confidence + 1e-12);
        }
    }

    @Property(tries = 200)
    void moreSamplesNeverWidenTheIntervalInRankTerms(@ForAll @IntRange(min = 1, max = 400) int n,
            @ForAll("confidences") double confidence) {
        OptionalInt now = MedianInterval.lowerRank(n, confidence);
        OptionalInt more = MedianInterval.lowerRank(n + 1, confidence);
        if (now.isPresent()) {
            assertThat(more).isPresent();
            // at least as many order statistics excluded on each side
            assertThat(more.getAsInt()).isGreaterThanOrEqualTo(now.getAsInt());
        }
    }

    @Property(tries = 100)
    void emptyBelowTheMinimumCount(@ForAll("confidences") double confidence) {
        // the whole range covers 1 - 2/2^n: the minimum n is the first that reaches the confidence
        int min = 2;
        while (1 - 2 / Math.pow(2, min) < confidence) {
            min++;
        }
        for (int n = 0; n < min; n++) {
            assertThat(MedianInterval.of(ramp(n), confidence)).as("n=%d", n).isEmpty();
        }
        assertThat(MedianInterval.of(ramp(min), confidence)).isPresent();
    }

    private static List<Double> ramp(int n) {
        List<Double> r = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            r.add((double) i);
        }
        return r;
    }
}
