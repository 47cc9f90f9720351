package io.stillwater.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A small line chart as inline SVG, so the HTML report needs no script and no network. Axes are
 * linear or log10; ticks are 1-2-5 steps. Pure function of its inputs.
 */
public final class SvgChart {
    static final int WIDTH = 560;
    static final int HEIGHT = 300;
    private static final int LEFT = 64;
    private static final int RIGHT = 30;
    private static final int TOP = 34;
    private static final int BOTTOM = 44;

    record Tick(double value, String label) {
    }

    /** An axis from {@code min} to {@code max}; for a log axis both must be positive. */
    record Axis(double min, double max, boolean log, List<Tick> ticks, String label) {
        double fraction(double v) {
            double f = log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (v - min) / (max - min);
            return Double.isNaN(f) ? 0 : Math.max(0, Math.min(1, f));
        }

        /** A linear axis over [min, max] with about five 1-2-5 ticks. */
        static Axis linear(double min, double max, String label, DoubleFunction<String> fmt) {
            if (!(max > min)) {
                max = min + 1;
            }
            double step = niceStep((max - min) / 5);
            List<Tick> ticks = new ArrayList<>();
            for (double v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
                ticks.add(new Tick(v, fmt.apply(v)));
            }
            return new Axis(min, max, false, ticks, label);
        }

        /** A log axis widened to whole decades around [lo, hi] (values &lt;= 0 are clamped to {@code floor}). */
        static Axis log(double lo, double hi, double floor, String label) {
            lo = Math.max(lo, floor);
            hi = Math.max(hi, lo);
            double min = Math.pow(10, Math.floor(Math.log10(lo)));
            double max = Math.pow(10, Math.ceil(Math.log10(hi)));
            if (max <= min) {
                max = min * 10;
            }
            int decades = (int) Math.round(Math.log10(max / min));
            double[] mantissas = decades > 3 ? new double[] {1} : new double[] {1, 2, 5};
            List<Tick> ticks = new ArrayList<>();
            for (double d = min; d <= max * 1.0000001; d *= 10) {
                for (double m : mantissas) {
                    double v = d * m;
                    if (v <= max * 1.0000001) {
                        ticks.add(new Tick(v, Format.compact(v)));
                    }
                }
            }
            return new Axis(min, max, true, ticks, label);
        }
    }

    /** A polyline; points with a NaN coordinate are left out. */
    record Series(String name, String cssClass, double[] xs, double[] ys, boolean thin) {
    }

    /** Short vertical marks at the bottom of the plot, e.g. when queries failed. */
    record Marks(String name, String cssClass, double[] xs) {
    }

    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String render(String cssClass, String action, String title, Axis x, Axis y, List<Series> series,
            List<Marks> marks) {
        StringBuilder b = new StringBuilder();
        b.append("<svg class=\"chart ").append(cssClass).append("\" data-action=\"").append(Html.escape(action))
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">");
        b.append("<title>").append(Html.escape(title)).append("</title>");
        int pw = WIDTH - LEFT - RIGHT;
        int ph = HEIGHT - TOP - BOTTOM;
        b.append("<rect class=\"plot\" x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
                .append(pw).append("\" height=\"").append(ph).append("\"/>");
        for (Tick t : y.ticks()) {
            double py = TOP + ph * (1 - y.fraction(t.value()));
            b.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + pw).append("\" y1=\"")
                    .append(f(py)).append("\" y2=\"").append(f(py)).append("\"/>");
            b.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(f(py + 4))
                    .append("\" text-anchor=\"end\">").append(Html.escape(t.label())).append("</text>");
        }
        xAxis(b, x, pw, ph, HEIGHT);
        b.append("<text class=\"axis-label\" transform=\"translate(14 ").append(TOP + ph / 2)
                .append(") rotate(-90)\" text-anchor=\"middle\">").append(Html.escape(y.label())).append("</text>");
        for (Series s : series) {
            StringBuilder pts = new StringBuilder();
            int n = 0;
            for (int i = 0; i < s.xs().length; i++) {
                if (Double.isNaN(s.xs()[i]) || Double.isNaN(s.ys()[i])) {
                    continue;
                }
                double px = LEFT + pw * x.fraction(s.xs()[i]);
                double py = TOP + ph * (1 - y.fraction(s.ys()[i]));
                pts.append(n++ == 0 ? "" : " ").append(f(px)).append(',').append(f(py));
            }
            if (n == 1) {
                // one point: draw it as a short tick so it is visible
                b.append("<circle class=\"").append(s.cssClass()).append("\" r=\"3\" cx=\"")
                        .append(pts.substring(0, pts.indexOf(","))).append("\" cy=\"")
                        .append(pts.substring(pts.indexOf(",") + 1)).append("\"/>");
            } else if (n > 1) {
                b.append("<polyline class=\"").append(s.cssClass()).append(s.thin() ? " thin" : "")
                        .append("\" points=\"").append(pts).append("\"/>");
            }
        }
        for (Marks m : marks) {
            for (double mx : m.xs()) {
                double px = LEFT + pw * x.fraction(mx);
                b.append("<line class=\"").append(m.cssClass()).append("\" x1=\"").append(f(px)).append("\" x2=\"")
                        .append(f(px)).append("\" y1=\"").append(TOP + ph).append("\" y2=\"").append(TOP + ph - 8)
                        .append("\"/>");
            }
        }
        // legend along the top
        double lx = LEFT;
        for (Series s : series) {
            lx = legend(b, lx, s.cssClass() + (s.thin() ? " thin" : ""), s.name());
        }
        for (Marks m : marks) {
            if (m.xs().length > 0) {
                lx = legend(b, lx, m.cssClass(), m.name());
            }
        }
        b.append("</svg>");
        return b.toString();
    }

    /**
     * The x axis of a plot {@code pw} by {@code ph} at (LEFT, TOP): a vertical grid line and a label
     * per tick, and the axis label at the bottom of a chart {@code height} high.
     */
    private static void xAxis(StringBuilder b, Axis x, int pw, int ph, int height) {
        for (Tick t : x.ticks()) {
            double px = LEFT + pw * x.fraction(t.value());
            b.append("<line class=\"grid\" x1=\"").append(f(px)).append("\" x2=\"").append(f(px)).append("\" y1=\"")
                    .append(TOP).append("\" y2=\"").append(TOP + ph).append("\"/>");
            b.append("<text class=\"tick\" x=\"").append(f(px)).append("\" y=\"").append(TOP + ph + 16)
                    .append("\" text-anchor=\"middle\">").append(Html.escape(t.label())).append("</text>");
        }
        b.append("<text class=\"axis-label\" x=\"").append(LEFT + pw / 2).append("\" y=\"").append(height - 6)
                .append("\" text-anchor=\"middle\">").append(Html.escape(x.label())).append("</text>");
    }

    /**
     * One row of a {@link #distribution} chart: the samples of one side.
     *
     * @param median the value to mark as the median (the one the verdict used), NaN for none
     */
    public record Strip(String name, String cssClass, double[] values, double median) {
    }

    private static final int STRIP_ROW = 46;
    /** The narrowest x axis of a {@link #distribution}, relative to its largest value: 10%. */
    static final double MIN_RELATIVE_SPAN = 0.10;

    /**
     * A strip plot as inline SVG: one horizontal row per {@link Strip}, each sample a dot (spread
     * vertically by a fixed pattern so equal values stay visible), over a box from the first to the
     * third quartile, with the median a thick vertical bar. The x axis is linear from 0 (or just below
     * the smallest sample when 0 would squeeze the samples into a sliver) to the largest sample, and
     * at least 10% of the largest value wide, so samples that agree to a few per mille do not look
     * different. Pure function of its inputs.
     */
    public static String distribution(String cssClass, String dataName, String title, String axisLabel,
            List<Strip> strips) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Strip s : strips) {
            for (double v : s.values()) {
                if (!Double.isNaN(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (lo == Double.POSITIVE_INFINITY) {
            lo = 0;
            hi = 1;
        }
        double min = lo >= 0 && lo < 0.5 * hi ? 0 : lo - (hi - lo) * 0.05;
        double max = hi + (hi - min) * 0.05;
        // Samples that agree to within a few percent (a heap of 24.31 vs 24.33 MiB) would otherwise
        // fill the whole width and look like a difference: the axis spans at least MIN_RELATIVE_SPAN
        // of the largest magnitude, centred on the samples, and never crosses 0 for positive data.
        double minSpan = MIN_RELATIVE_SPAN * Math.max(Math.abs(lo), Math.abs(hi));
        if (max - min < minSpan) {
            double mid = (lo + hi) / 2;
            min = lo >= 0 ? Math.max(0, mid - minSpan / 2) : mid - minSpan / 2;
            max = min + minSpan;
        }
        Axis x = Axis.linear(min, max > min ? max : min + 1, axisLabel, Format::compact);
        int ph = STRIP_ROW * Math.max(1, strips.size());
        int height = TOP + ph + BOTTOM;
        int pw = WIDTH - LEFT - RIGHT;
        StringBuilder b = new StringBuilder();
        b.append("<svg class=\"chart ").append(cssClass).append("\" data-metric=\"").append(Html.escape(dataName))
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">");
        b.append("<title>").append(Html.escape(title)).append("</title>");
        b.append("<rect class=\"plot\" x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
                .append(pw).append("\" height=\"").append(ph).append("\"/>");
        xAxis(b, x, pw, ph, height);
        for (int row = 0; row < strips.size(); row++) {
            Strip s = strips.get(row);
            double cy = TOP + STRIP_ROW * row + STRIP_ROW / 2.0;
            b.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(f(cy + 4))
                    .append("\" text-anchor=\"end\">").append(Html.escape(s.name())).append("</text>");
            double[] sorted = Arrays.stream(s.values()).filter(v -> !Double.isNaN(v)).sorted().toArray();
            if (sorted.length >= 2) {
                double q1 = LEFT + pw * x.fraction(quantile(sorted, 0.25));
                double q3 = LEFT + pw * x.fraction(quantile(sorted, 0.75));
                b.append("<rect class=\"box ").append(s.cssClass()).append("\" x=\"").append(f(q1)).append("\" y=\"")
                        .append(f(cy - 12)).append("\" width=\"").append(f(Math.max(1, q3 - q1)))
                        .append("\" height=\"24\"/>");
            }
            for (int i = 0; i < sorted.length; i++) {
                double px = LEFT + pw * x.fraction(sorted[i]);
                double jitter = ((i * 7L) % 9 - 4) * 2.5;
                b.append("<circle class=\"dot ").append(s.cssClass()).append("\" r=\"2.5\" cx=\"").append(f(px))
                        .append("\" cy=\"").append(f(cy + jitter)).append("\"/>");
            }
            if (!Double.isNaN(s.median())) {
                double px = LEFT + pw * x.fraction(s.median());
                b.append("<line class=\"median ").append(s.cssClass()).append("\" x1=\"").append(f(px))
                        .append("\" x2=\"").append(f(px)).append("\" y1=\"").append(f(cy - 16)).append("\" y2=\"")
                        .append(f(cy + 16)).append("\"><title>median ").append(Html.escape(Format.compact(s.median())))
                        .append("</title></line>");
            }
        }
        double lx = LEFT;
        for (Strip s : strips) {
            lx = legend(b, lx, s.cssClass(), s.name() + " (n=" + s.values().length + ")");
        }
        b.append("</svg>");
        return b.toString();
    }

    /** Linear interpolation between the closest ranks of sorted values (R's type 7). */
    static double quantile(double[] sorted, double q) {
        double h = (sorted.length - 1) * q;
        int lo = (int) Math.floor(h);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    private static double legend(StringBuilder b, double lx, String cssClass, String name) {
        b.append("<line class=\"").append(cssClass).append("\" x1=\"").append(f(lx)).append("\" x2=\"")
                .append(f(lx + 16)).append("\" y1=\"14\" y2=\"14\"/>");
        b.append("<text class=\"legend\" x=\"").append(f(lx + 20)).append("\" y=\"18\">").append(Html.escape(name))
                .append("</text>");
        return lx + 28 + 6.2 * name.length();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
