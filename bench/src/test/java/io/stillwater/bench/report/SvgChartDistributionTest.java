package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The strip plot's x axis: honest about how far apart samples are. */
class SvgChartDistributionTest {
    private static final Pattern DOT = Pattern.compile("<circle class=\"dot [^\"]*\" r=\"[^\"]*\" cx=\"([0-9.]+)\"");
    private static final Pattern PLOT = Pattern.compile("<rect class=\"plot\" x=\"(\\d+)\" y=\"\\d+\" width=\"(\\d+)\"");

    @Test
    void samplesThatAgreeToAPerMilleStayCloseTogether() {
        String svg = SvgChart.distribution("c", "memory_heap", "heap", "MiB", List.of(
                new SvgChart.Strip("this", "this", new double[] {24.31, 24.32}, 24.315),
                new SvgChart.Strip("other", "other", new double[] {24.33, 24.34}, 24.335)));
        double[] xs = DOT.matcher(svg).results().mapToDouble(m -> Double.parseDouble(m.group(1))).toArray();
        assertThat(xs).hasSize(4);
        double spread = Arrays.stream(xs).max().getAsDouble() - Arrays.stream(xs).min().getAsDouble();
        // 0.03 apart on values of 24.3: about 1% of the axis, never the whole plot
        assertThat(spread / plotWidth(svg)).isLessThan(0.05);
    }

    @Test
    void samplesFarApartStillUseTheWidth() {
        String svg = SvgChart.distribution("c", "wallclock", "wallclock", "ms", List.of(
                new SvgChart.Strip("this", "this", new double[] {10, 20}, 15),
                new SvgChart.Strip("other", "other", new double[] {90, 100}, 95)));
        double[] xs = DOT.matcher(svg).results().mapToDouble(m -> Double.parseDouble(m.group(1))).toArray();
        double spread = Arrays.stream(xs).max().getAsDouble() - Arrays.stream(xs).min().getAsDouble();
        assertThat(spread / plotWidth(svg)).isGreaterThan(0.8);
    }

    private static double plotWidth(String svg) {
        Matcher m = PLOT.matcher(svg);
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(2));
    }
}
