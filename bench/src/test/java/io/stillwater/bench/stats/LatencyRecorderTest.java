package io.stillwater.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    private static final long MS = 1_000_000;

    @Test
    void uniformLatenciesGiveExactMomentsAndPercentilesWithinHistogramPrecision() {
        LatencyRecorder r = new LatencyRecorder("q");
        int n = 10_000;
        for (int i = 1; i <= n; i++) {
            r.recordSuccess(i * MS, i * 1_000L); // latency i µs
        }
        r.addWallTime(10L * 1_000_000_000L);
        ActionStatistics s = r.statistics();
        assertThat(s.queries()).isEqualTo(n);
        assertThat(s.errors()).isZero();
        assertThat(s.qps()).isCloseTo(1000.0, within(1e-9));
        assertThat(s.min()).isCloseTo(0.001, within(1e-12));
        assertThat(s.max()).isCloseTo(10.0, within(1e-12));
        assertThat(s.avg()).isCloseTo((n + 1) / 2.0 / 1000, within(1e-9));
        // sample variance of 1..n is n(n+1)/12
        assertThat(s.std()).isCloseTo(Math.sqrt(n * (n + 1) / 12.0) / 1000, within(1e-9));
        assertThat(s.p50()).isCloseTo(5.0, within(5.0 * 0.001));
        assertThat(s.p95()).isCloseTo(9.5, within(9.5 * 0.001));
        assertThat(s.p99()).isCloseTo(9.9, within(9.9 * 0.001));
        assertThat(s.p99_9()).isCloseTo(9.99, within(9.99 * 0.001));
        // latency rises 1 µs per ms of run time: 1 ms per s
        assertThat(s.slope()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void exponentialLatenciesMatchNearestRankPercentilesAndSampleStd() {
        SplittableRandom random = new SplittableRandom(42);
        LatencyRecorder r = new LatencyRecorder("q");
        int n = 100_000;
        long[] micros = new long[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            long nanos = (long) (-Math.log(1 - random.nextDouble()) * 2 * MS);
            micros[i] = nanos / 1000;
            sum += nanos;
            r.recordSuccess(i, nanos);
        }
        double mean = sum / n;
        ActionStatistics s = r.statistics();
        assertThat(s.avg()).isCloseTo(mean / 1e6, within(1e-9));
        assertThat(s.avg()).isCloseTo(2.0, within(0.05)); // the distribution's mean
        Arrays.sort(micros);
        for (double q : new double[] {50, 95, 99, 99.9}) {
            double exact = micros[(int) Math.ceil(q / 100 * n) - 1] / 1e3;
            assertThat(percentile(s, q)).as("p%s", q).isCloseTo(exact, within(exact * 0.001 + 0.001));
        }
        // exponential: median = mean * ln 2
        assertThat(s.p50()).isCloseTo(2.0 * Math.log(2), within(0.05));
    }

    @Test
    void slopeOfALinearRampIsItsGradientAndAFlatSeriesHasNone() {
        LatencyRecorder ramp = new LatencyRecorder("ramp");
        LatencyRecorder flat = new LatencyRecorder("flat");
        for (int i = 0; i < 1000; i++) {
            long offset = i * 10 * MS; // 10 s in total
            ramp.recordSuccess(offset, 3 * MS + (long) (2.5 * offset / 1000)); // +2.5 ms per s
            flat.recordSuccess(offset, 3 * MS);
        }
        assertThat(ramp.statistics().slope()).isCloseTo(2.5, within(1e-6));
        assertThat(flat.statistics().slope()).isZero();
    }

    @Test
    void failuresAreCountedWithTheirTextAndKeptOutOfLatencyStats() {
        LatencyRecorder r = new LatencyRecorder("q");
        r.recordSuccess(0, 2 * MS);
        r.recordSuccess(MS, 4 * MS);
        r.recordFailure(2 * MS, 500 * MS, "42P01: relation \"t\" does not exist");
        r.recordFailure(3 * MS, 500 * MS, "42P01: relation \"t\" does not exist");
        r.recordFailure(4 * MS, 1 * MS, "57014: canceling statement due to user request");
        r.addWallTime(2_000_000_000L);
        ActionStatistics s = r.statistics();
        assertThat(s.queries()).isEqualTo(5);
        assertThat(s.errors()).isEqualTo(3);
        assertThat(s.errorRate()).isCloseTo(0.6, within(1e-12));
        assertThat(s.qps()).isCloseTo(1.0, within(1e-12)); // 2 successes in 2 s
        assertThat(s.max()).isCloseTo(4.0, within(1e-12));
        assertThat(s.avg()).isCloseTo(3.0, within(1e-12));
        assertThat(s.errorCounts()).containsOnly(
                Map.entry("42P01: relation \"t\" does not exist", 2L),
                Map.entry("57014: canceling statement due to user request", 1L));
        List<Sample> series = r.samples();
        assertThat(series).hasSize(5);
        assertThat(series.stream().filter(x -> !x.ok()).count()).isEqualTo(3);
    }

    @Test
    void anActionWithoutSuccessesHasNoLatencyStats() {
        LatencyRecorder r = new LatencyRecorder("q");
        r.recordFailure(0, MS, "XX000: internal error");
        r.addWallTime(1_000_000_000L);
        ActionStatistics s = r.statistics();
        assertThat(s.errorRate()).isEqualTo(1.0);
        assertThat(s.qps()).isZero();
        assertThat(s.p50()).isNaN();
        assertThat(s.avg()).isNaN();
    }

    @Property(tries = 200)
    void percentilesAreWithinHistogramPrecisionOfNearestRank(
            @ForAll @Size(min = 1, max = 300) List<@LongRange(min = 1, max = 10_000_000) Long> micros) {
        LatencyRecorder r = new LatencyRecorder("q");
        for (long m : micros) {
            r.recordSuccess(0, m * 1000);
        }
        long[] sorted = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        ActionStatistics s = r.statistics();
        for (double q : new double[] {50, 95, 99, 99.9}) {
            double exact = sorted[Math.max(0, (int) Math.ceil(q / 100 * sorted.length) - 1)] / 1e3;
            assertThat(percentile(s, q)).isCloseTo(exact, within(exact * 0.001 + 1e-9));
        }
        assertThat(s.min()).isEqualTo(sorted[0] / 1e3);
        assertThat(s.max()).isEqualTo(sorted[sorted.length - 1] / 1e3);
    }

    private static double percentile(ActionStatistics s, double q) {
        return q == 50 ? s.p50() : q == 95 ? s.p95() : q == 99 ? s.p99() : s.p99_9();
    }
}
