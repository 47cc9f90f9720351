package io.stillwater.bench.report;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.history.HistogramCodec;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.SideInfo;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.load.LoadPhaseReport;
import io.stillwater.bench.load.LoopReport;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * A self-contained HTML report: inline CSS, inline SVG charts, no script, nothing fetched over
 * the network, every string escaped. Per scenario: its verdict and reason, the verdict table
 * (rows whose threshold is tighter than twice the calibrated spread are flagged), and per action
 * two charts: latency over time (this vs other; per time bin the median and the maximum, failed
 * queries marked at the bottom) and the percentile distribution (from the success histograms).
 * Charts merge all completed runs of a side (each run's time axis starts at its first load phase).
 */
public final class HtmlReport {
    /** Time bins of the latency-over-time chart. */
    static final int BINS = 60;

    private HtmlReport() {
    }

    public static void write(BenchReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(BenchReport report) {
        RunInfo run = report.run();
        StringBuilder b = new StringBuilder(64 * 1024);
        String title = "Stillwater bench: " + run.thisSide().build() + " vs " + run.otherSide().build();
        Html.pageStart(b, title, CSS);
        BenchReport.Summary summary = report.summary();
        b.append("<p class=\"summary ").append(summary.green() ? "green" : "red").append("\">")
                .append(e(summary.line())).append("</p>\n");
        b.append("<p class=\"legend\">charts: <span class=\"this-key\">this = ").append(e(run.thisSide().build()))
                .append("</span>, <span class=\"other-key\">other = ").append(e(run.otherSide().build()))
                .append("</span>; solid = median, dashed = maximum</p>\n");
        runTable(b, run);
        b.append("</header>\n<nav>\n<h2>Scenarios</h2>\n<ul>\n");
        for (int i = 0; i < report.scenarios().size(); i++) {
            ScenarioComparison c = report.scenarios().get(i);
            ScenarioOutcome o = report.outcome(c);
            b.append("<li><a href=\"#scenario-").append(i + 1).append("\">").append(e(c.scenario())).append("</a> ")
                    .append(badge(o)).append("</li>\n");
        }
        b.append("</ul>\n</nav>\n<main>\n");
        for (int i = 0; i < report.scenarios().size(); i++) {
            scenario(b, report, report.scenarios().get(i), i + 1);
        }
        Html.pageEnd(b);
        return b.toString();
    }

    private static void runTable(StringBuilder b, RunInfo run) {
        b.append("<table class=\"meta\">\n");
        Html.meta(b, "mode", run.mode().name().toLowerCase(Locale.ROOT));
        Html.meta(b, "started", run.started().toString());
        Html.meta(b, "finished", Html.finished(run));
        Html.meta(b, "this", side(run.thisSide()));
        Html.meta(b, "other", side(run.otherSide()));
        Html.meta(b, "runs per side", Integer.toString(run.runsPerSide()) + " (interleaved; verdicts on the median)");
        Html.meta(b, "load phase duration", run.loadPhaseDuration().map(Html::human).orElse("as declared"));
        Html.meta(b, "framework", run.frameworkVersion());
        Html.meta(b, "host", Html.host(run.host()));
        b.append("</table>\n");
    }

    private static String side(SideInfo s) {
        return s.build() + " (" + s.target() + (s.params().isEmpty() ? "" : ", " + s.paramsText()) + ")";
    }

    private static String badge(ScenarioOutcome o) {
        return "<span class=\"badge " + o.verdict().name() + "\">" + o.verdict().name() + "</span>";
    }

    private static void scenario(StringBuilder b, BenchReport report, ScenarioComparison c, int index) {
        ScenarioOutcome o = report.outcome(c);
        String version = c.thisRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse("");
        b.append("<section class=\"scenario\" id=\"scenario-").append(index).append("\">\n<h2>")
                .append(e(c.scenario())).append(version.isEmpty() ? "" : " <small>" + e(version) + "</small>")
                .append(' ').append(badge(o)).append("</h2>\n");
        if (!o.reason().isEmpty()) {
            b.append("<p class=\"reason\">").append(e(o.reason())).append("</p>\n");
        }
        List<String> notes = new ArrayList<>(c.problems());
        notes.addAll(TerminalTable.notes(c));
        if (!notes.isEmpty()) {
            b.append("<ul class=\"notes\">\n");
            for (String n : new LinkedHashSet<>(notes)) {
                b.append("<li>").append(e(n)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        Set<String> actions = new LinkedHashSet<>();
        c.verdicts().forEach(v -> actions.add(v.action()));
        c.thisRuns().forEach(r -> actions.addAll(r.actions().keySet()));
        c.otherRuns().forEach(r -> actions.addAll(r.actions().keySet()));
        if (!c.verdicts().isEmpty()) {
            verdictTable(b, report, c);
        }
        StoredScenario stored = c.otherRuns().isEmpty() ? report.otherFromHistory().get(c.scenario()) : null;
        for (String action : actions) {
            b.append("<div class=\"action\">\n<h3>").append(e(action)).append("</h3>\n<div class=\"charts\">\n");
            List<Sample> thisSamples = samples(c.thisRuns(), action);
            List<Sample> otherSamples = samples(c.otherRuns(), action);
            b.append(latencyOverTime(action, thisSamples, otherSamples, report.run())).append('\n');
            Histogram otherHist = stored != null ? merged(stored.histograms(), action)
                    : HistogramCodec.fromSamples(otherSamples);
            b.append(percentiles(action, HistogramCodec.fromSamples(thisSamples), otherHist,
                    stored != null ? " (history)" : "")).append('\n');
            b.append("</div>\n</div>\n");
        }
        harness(b, c);
        b.append("</section>\n");
    }

    private static void verdictTable(StringBuilder b, BenchReport report, ScenarioComparison c) {
        b.append("<table class=\"verdicts\">\n<thead><tr><th>stat</th><th>this</th><th>other</th><th>change</th>")
                .append("<th>threshold</th><th>calibrated spread</th><th>verdict</th></tr></thead>\n<tbody>\n");
        String action = null;
        for (StatVerdict v : c.verdicts()) {
            if (!v.action().equals(action)) {
                action = v.action();
                b.append("<tr class=\"action-row\"><th colspan=\"7\">").append(e(action)).append("</th></tr>\n");
            }
            boolean noisy = report.tighterThanNoise(c, v);
            String cls = v.outcome().name().toLowerCase(Locale.ROOT) + (noisy ? " noisy" : "");
            String unit = Format.unit(v.stat());
            b.append("<tr class=\"").append(cls).append("\"><td>").append(e(v.stat().key()))
                    .append(unit.isEmpty() ? "" : " <small>" + e(unit) + "</small>").append("</td><td>")
                    .append(e(Format.value(v.stat(), v.thisValue()))).append("</td><td>")
                    .append(e(Format.value(v.stat(), v.otherValue()))).append("</td><td>").append(e(Format.change(v)))
                    .append("</td><td>").append(e(Format.threshold(v.threshold()))).append("</td><td>")
                    .append(e(Format.spread(report.calibration(c, v), v.threshold())).replace("+-", "&plusmn;"));
            if (noisy) {
                b.append(" <span class=\"flag\" title=\"threshold tighter than twice the calibrated run-to-run"
                        + " spread: it can fire on noise\">&#9888; noisy</span>");
            }
            b.append("</td><td>").append(e(Format.outcome(v.outcome()))).append("</td></tr>\n");
        }
        b.append("</tbody>\n</table>\n");
    }

    /** The harness's own figures: per run and loop, queries issued and schedule lateness. */
    private static void harness(StringBuilder b, ScenarioComparison c) {
        if (c.thisRuns().stream().allMatch(r -> r.loadPhases().isEmpty())
                && c.otherRuns().stream().allMatch(r -> r.loadPhases().isEmpty())) {
            return;
        }
        b.append("<details class=\"harness\"><summary>harness: load phases and schedule lateness</summary>\n")
                .append("<table>\n<thead><tr><th>run</th><th>phase wall s</th><th>action</th><th>loop</th>")
                .append("<th>issued</th><th>max lateness ms</th><th>p99 lateness ms</th></tr></thead>\n<tbody>\n");
        harnessRows(b, "this", c.thisRuns());
        harnessRows(b, "other", c.otherRuns());
        b.append("</tbody>\n</table>\n</details>\n");
    }

    private static void harnessRows(StringBuilder b, String side, List<ScenarioResult> runs) {
        for (int i = 0; i < runs.size(); i++) {
            for (LoadPhaseReport p : runs.get(i).loadPhases()) {
                for (LoopReport l : p.loops()) {
                    b.append("<tr><td>").append(side).append(' ').append(i + 1).append("</td><td>")
                            .append(String.format(Locale.ROOT, "%.2f", p.wallSeconds())).append("</td><td>")
                            .append(e(l.action())).append("</td><td>").append(l.kind().name().toLowerCase(Locale.ROOT))
                            .append("</td><td>").append(l.issued()).append("</td><td>")
                            .append(e(Format.millis(l.maxLatenessMillis()))).append("</td><td>")
                            .append(e(Format.millis(l.p99LatenessMillis()))).append("</td></tr>\n");
                }
            }
        }
    }

    private static List<Sample> samples(List<ScenarioResult> runs, String action) {
        List<Sample> out = new ArrayList<>();
        for (ScenarioResult r : runs) {
            if (r.status() == ScenarioResult.Status.COMPLETED) {
                out.addAll(r.timeSeries().getOrDefault(action, List.of()));
            }
        }
        return out;
    }

    private static Histogram merged(List<Map<String, Histogram>> runs, String action) {
        Histogram h = new Histogram(3);
        for (Map<String, Histogram> run : runs) {
            Histogram one = run.get(action);
            if (one != null) {
                h.add(one);
            }
        }
        return h;
    }

    /** Per time bin: median and maximum successful latency, per side; failures as marks. */
    static String latencyOverTime(String action, List<Sample> thisSamples, List<Sample> otherSamples, RunInfo run) {
        double end = 0;
        for (Sample s : thisSamples) {
            end = Math.max(end, s.offsetMillis());
        }
        for (Sample s : otherSamples) {
            end = Math.max(end, s.offsetMillis());
        }
        double binMillis = end <= 0 ? 1 : end / BINS * (1 + 1e-9);
        List<SvgChart.Series> series = new ArrayList<>();
        List<SvgChart.Marks> marks = new ArrayList<>();
        double[] range = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        bins("this", thisSamples, binMillis, series, marks, range);
        bins("other", otherSamples, binMillis, series, marks, range);
        SvgChart.Axis x = SvgChart.Axis.linear(0, Math.max(end / 1000, 0.001), "time since the first load phase, s",
                Format::compact);
        SvgChart.Axis y = range[0] > range[1] ? SvgChart.Axis.log(1, 10, 0.001, "latency, ms (log)")
                : SvgChart.Axis.log(range[0], range[1], 0.001, "latency, ms (log)");
        return SvgChart.render("latency-over-time", action, "latency over time: " + action + " (this = "
                + run.thisSide().build() + ", other = " + run.otherSide().build() + "; per time bin the median"
                + " and the maximum; failed queries marked at the bottom)", x, y, series, marks);
    }

    private static void bins(String cls, List<Sample> samples, double binMillis,
            List<SvgChart.Series> series, List<SvgChart.Marks> marks, double[] range) {
        if (samples.isEmpty()) {
            return;
        }
        List<List<Double>> ok = new ArrayList<>();
        int[] failures = new int[BINS + 1];
        for (int i = 0; i <= BINS; i++) {
            ok.add(new ArrayList<>());
        }
        for (Sample s : samples) {
            int bin = (int) Math.min(BINS, Math.max(0, Math.floor(s.offsetMillis() / binMillis)));
            if (s.ok()) {
                ok.get(bin).add(Math.max(s.latencyMicros() / 1000, 0.001));
            } else {
                failures[bin]++;
            }
        }
        double[] xs = new double[BINS + 1];
        double[] p50 = new double[BINS + 1];
        double[] max = new double[BINS + 1];
        List<Double> failX = new ArrayList<>();
        for (int i = 0; i <= BINS; i++) {
            xs[i] = (i + 0.5) * binMillis / 1000;
            List<Double> v = ok.get(i);
            if (v.isEmpty()) {
                p50[i] = Double.NaN;
                max[i] = Double.NaN;
            } else {
                double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
                Arrays.sort(a);
                p50[i] = a[(a.length - 1) / 2];
                max[i] = a[a.length - 1];
                range[0] = Math.min(range[0], p50[i]);
                range[1] = Math.max(range[1], max[i]);
            }
            if (failures[i] > 0) {
                failX.add(xs[i]);
            }
        }
        series.add(new SvgChart.Series(cls + " median", cls, xs, p50, false));
        series.add(new SvgChart.Series(cls + " max", cls, xs, max, true));
        marks.add(new SvgChart.Marks(cls + " errors", "fail " + cls,
                failX.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /** Latency against percentile on a "nines" axis (90%, 99%, 99.9%...), from the histograms. */
    static String percentiles(String action, Histogram thisHist, Histogram otherHist, String otherSuffix) {
        double maxNines = 1;
        for (Histogram h : List.of(thisHist, otherHist)) {
            if (h.getTotalCount() > 0) {
                maxNines = Math.max(maxNines, Math.min(5, Math.log10(h.getTotalCount())));
            }
        }
        maxNines = Math.ceil(maxNines);
        List<SvgChart.Series> series = new ArrayList<>();
        double[] range = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        curve("this", "this", thisHist, series, range);
        curve("other" + otherSuffix, "other", otherHist, series, range);
        List<SvgChart.Tick> ticks = new ArrayList<>();
        for (int n = 0; n <= maxNines; n++) {
            ticks.add(new SvgChart.Tick(n, n == 0 ? "0%" : nines(n)));
        }
        SvgChart.Axis x = new SvgChart.Axis(0, maxNines, false, ticks, "percentile");
        SvgChart.Axis y = range[0] > range[1] ? SvgChart.Axis.log(1, 10, 0.001, "latency, ms (log)")
                : SvgChart.Axis.log(range[0], range[1], 0.001, "latency, ms (log)");
        return SvgChart.render("percentiles", action, "percentile distribution: " + action, x, y, series,
                List.of());
    }

    private static void curve(String name, String cls, Histogram h, List<SvgChart.Series> series, double[] range) {
        long count = h.getTotalCount();
        if (count == 0) {
            return;
        }
        double limit = Math.min(5, Math.log10(count));
        int points = (int) Math.ceil(limit / 0.05) + 1;
        double[] xs = new double[points + 1];
        double[] ys = new double[points + 1];
        for (int i = 0; i < points; i++) {
            double n = Math.min(limit, i * 0.05);
            double q = 100 * (1 - Math.pow(10, -n));
            xs[i] = n;
            ys[i] = Math.max(h.getValueAtPercentile(q) / 1000.0, 0.001);
        }
        // the maximum, at the end of the curve
        xs[points] = limit;
        ys[points] = Math.max(h.getMaxValue() / 1000.0, 0.001);
        for (double y : ys) {
            range[0] = Math.min(range[0], y);
            range[1] = Math.max(range[1], y);
        }
        series.add(new SvgChart.Series(name, cls, xs, ys, false));
    }

    /** 1 -> "90%", 2 -> "99%", 3 -> "99.9%", ... */
    static String nines(int n) {
        return n == 1 ? "90%" : "99" + (n > 2 ? "." + "9".repeat(n - 2) : "") + "%";
    }

    private static String e(String s) {
        return Html.escape(s);
    }

    /** The report's style sheet; the feature bench's HTML report starts from it so both look alike. */
    public static final String CSS = """
            body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px;
              padding: 0 16px 48px; color: #1b1f24; background: #fff; }
            h1 { font-size: 22px; margin: 20px 0 6px; }
            h2 { font-size: 18px; margin: 28px 0 6px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
            h2 small { color: #57606a; font-weight: normal; }
            h3 { font-size: 13px; font-family: ui-monospace, monospace; margin: 16px 0 4px; word-break: break-all; }
            .summary { font-weight: 600; padding: 6px 10px; border-radius: 4px; display: inline-block; }
            .summary.green { background: #dafbe1; } .summary.red { background: #ffebe9; }
            table { border-collapse: collapse; margin: 8px 0; }
            th, td { padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
            table.meta th { color: #57606a; font-weight: normal; }
            table.verdicts td:nth-child(n+2):nth-child(-n+4) { text-align: right; font-variant-numeric: tabular-nums; }
            table.verdicts thead th { border-bottom: 1px solid #d0d7de; }
            tr.action-row th { font-family: ui-monospace, monospace; font-size: 12px; padding-top: 8px; word-break: break-all; }
            tr.ungated td { color: #6e7781; }
            tr.regression td { background: #ffebe9; font-weight: 600; }
            tr.no_data td { color: #9a6700; }
            tr.noisy td { background: #fff8c5; }
            .flag { color: #9a6700; font-weight: 600; }
            .badge { font-size: 11px; padding: 1px 6px; border-radius: 10px; color: #fff; vertical-align: middle; }
            .badge.PASSED { background: #1a7f37; } .badge.REGRESSED, .badge.VIOLATED { background: #cf222e; }
            .badge.FAILED, .badge.INVALID { background: #82071e; } .badge.SKIPPED { background: #6e7781; }
            .reason { color: #82071e; white-space: pre-wrap; }
            .notes { color: #57606a; }
            .charts { display: flex; flex-wrap: wrap; gap: 12px; }
            svg.chart { background: #fff; border: 1px solid #d0d7de; border-radius: 4px; max-width: 100%; height: auto; }
            svg .plot { fill: #fcfcfd; stroke: #d0d7de; }
            svg .grid { stroke: #eaeef2; stroke-width: 1; }
            svg .tick, svg .legend { font-size: 10px; fill: #57606a; }
            svg .axis-label { font-size: 11px; fill: #1b1f24; }
            svg polyline, svg line.this, svg line.other { fill: none; stroke-width: 1.8; }
            svg .this { stroke: #0969da; fill: #0969da; } svg .other { stroke: #bc4c00; fill: #bc4c00; }
            svg polyline.this, svg polyline.other { fill: none; }
            svg .thin { stroke-width: 0.8; stroke-dasharray: 3 2; }
            svg line.fail { stroke-width: 2; } svg line.fail.this { stroke: #cf222e; } svg line.fail.other { stroke: #8250df; }
            .this-key { color: #0969da; font-weight: 600; } .other-key { color: #bc4c00; font-weight: 600; }
            details.harness { margin-top: 10px; color: #57606a; font-size: 12px; }
            """;
}
