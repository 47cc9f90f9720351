package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.history.RunInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The feature run as one self-contained HTML page (no script, no network): the run's metadata, the
 * verdict table of every scenario and metric, and per scenario the effective parameters of each side
 * and, per metric, the distribution of the kept samples of this and other (all runs pooled) as an
 * inline SVG strip plot with quartile box and the median the verdict used marked. Every string
 * from the run goes through {@link Html#escape}.
 */
public final class FeatureHtmlReport {
    private static final String CSS = """
            svg .box.this { fill: #0969da; fill-opacity: 0.12; stroke: #0969da; stroke-width: 1; }
            svg .box.other { fill: #bc4c00; fill-opacity: 0.12; stroke: #bc4c00; stroke-width: 1; }
            svg circle.dot { fill-opacity: 0.7; stroke: none; }
            svg line.median { stroke-width: 3.5; }
            tr.improvement td { background: #dafbe1; }
            tr.not_compared td { color: #6e7781; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            """;

    private FeatureHtmlReport() {
    }

    public static void write(FeatureReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(FeatureReport report) {
        RunInfo run = report.info();
        StringBuilder b = new StringBuilder(64 * 1024);
        // a same-build A/B differs only in parameters: the title says what is compared
        String title = "Stillwater feature bench: " + FeatureText.side(run.thisSide()) + " vs "
                + FeatureText.side(run.otherSide());
        Html.pageStart(b, title, HtmlReport.CSS + CSS);
        b.append("<p class=\"summary ").append(report.failed() ? "red" : "green").append("\">")
                .append(e(FeatureText.summary(report))).append("</p>\n");
        b.append("<p class=\"legend\">charts: <span class=\"this-key\">this</span> and <span class=\"other-key\">"
                + "other</span>, kept samples of all runs pooled; box = quartiles, bar = median</p>\n");
        b.append("<table class=\"meta\">\n");
        Html.meta(b, "started", run.started().toString());
        Html.meta(b, "finished", Html.finished(run));
        Html.meta(b, "this", FeatureText.side(run.thisSide()));
        Html.meta(b, "other", FeatureText.side(run.otherSide()));
        Html.meta(b, "runs per scenario", run.runsPerSide() + " at most (a scenario that regressed in its first run is "
                + "run again and judged on all runs pooled)");
        Html.meta(b, "measurements", "at most " + report.maxMeasurements() + " per side run, warm-up included");
        Html.meta(b, "scale",
                report.scaleOption().isEmpty() ? "each scenario's SCALE" : "--scale " + report.scaleOption());
        Html.meta(b, "framework", run.frameworkVersion());
        Html.meta(b, "host", Html.host(run.host()));
        b.append("</table>\n</header>\n<main>\n<h2>Verdicts</h2>\n");
        verdictTable(b, report);
        for (int i = 0; i < report.scenarios().size(); i++) {
            scenario(b, report, report.scenarios().get(i), i + 1);
        }
        Html.pageEnd(b);
        return b.toString();
    }

    private static void verdictTable(StringBuilder b, FeatureReport report) {
        b.append("<table class=\"verdicts\">\n<thead><tr><th>name</th><th>metric</th><th>this</th><th>other</th>"
                + "<th>unit</th><th>threshold</th><th>calibrated spread</th><th>verdict</th><th>'this' is</th></tr>"
                + "</thead>\n<tbody>\n");
        for (int i = 0; i < report.scenarios().size(); i++) {
            FeatureScenarioResult r = report.scenarios().get(i);
            String link = "<a href=\"#scenario-" + (i + 1) + "\">" + e(r.scenario()) + "</a>";
            if (r.verdicts().isEmpty()) {
                b.append("<tr><td>").append(link).append("</td><td colspan=\"8\">").append(badge(r)).append(' ')
                        .append(e(r.reason())).append("</td></tr>\n");
            }
            boolean first = true;
            for (MetricVerdict v : r.verdicts()) {
                b.append("<tr class=\"").append(v.outcome().name().toLowerCase(Locale.ROOT)).append("\"><td>")
                        .append(first ? link : "").append("</td><td>").append(e(v.metric().label()))
                        .append("</td><td class=\"num\">").append(e(FeatureText.median(v.thisMedian(), v.thisSamples())))
                        .append("</td><td class=\"num\">")
                        .append(e(FeatureText.median(v.otherMedian(), v.otherSamples()))).append("</td><td>")
                        .append(e(v.metric().unit())).append("</td><td class=\"num\">")
                        .append(e(FeatureText.threshold(v.threshold()))).append("</td><td class=\"num\">")
                        .append(e(FeatureText.spread(report.calibration(r, v))).replace("+-", "&plusmn;"));
                if (report.tighterThanNoise(r, v)) {
                    b.append(" <span class=\"flag\" title=\"threshold tighter than twice the calibrated run-to-run"
                            + " spread: it can fire on noise\">&#9888; noisy</span>");
                }
                b.append("</td><td>").append(e(FeatureText.outcome(v.outcome()))).append("</td><td>").append(e(v.text()))
                        .append("</td></tr>\n");
                first = false;
            }
        }
        b.append("</tbody>\n</table>\n");
        if (report.calibrating()) {
            b.append("<p class=\"legend\">").append(e(FeatureText.CALIBRATING_LEGEND)).append("</p>\n");
        }
        if (report.anyTighterThanNoise()) {
            b.append("<p class=\"legend\"><span class=\"flag\">&#9888; noisy</span>: ")
                    .append(e(FeatureText.NOISY_LEGEND.substring(2))).append("</p>\n");
        }
    }

    private static void scenario(StringBuilder b, FeatureReport report, FeatureScenarioResult r, int index) {
        b.append("<section id=\"scenario-").append(index).append("\">\n<h2>").append(e(r.scenario())).append(" <small>")
                .append(e(r.version())).append(r.groups().isEmpty() ? "" : " &middot; " + e(String.join(" / ", r.groups())))
                .append(" &middot; SCALE ").append(e(scale(r.scale()))).append("</small> ").append(badge(r))
                .append("</h2>\n");
        if (!r.reason().isEmpty()) {
            b.append("<p class=\"reason\">").append(e(r.reason())).append("</p>\n");
        }
        List<String> params = FeatureText.params(r);
        if (!params.isEmpty()) {
            b.append("<table class=\"meta params\">\n<tr><th>parameter</th><th>this</th><th>other</th></tr>\n");
            for (String name : paramNames(r)) {
                b.append("<tr><td>").append(e(name)).append("</td><td>")
                        .append(e(r.thisParams().getOrDefault(name, "(not read)"))).append("</td><td>")
                        .append(e(r.otherParams().getOrDefault(name, "(not read)"))).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        List<String> notes = FeatureText.notes(r, report.maxMeasurements(), report.calibrating());
        if (!notes.isEmpty()) {
            b.append("<ul class=\"notes\">\n");
            for (String n : notes) {
                b.append("<li>").append(e(n)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        if (!r.verdicts().isEmpty()) {
            b.append("<div class=\"charts\">\n");
            for (MetricVerdict v : r.verdicts()) {
                b.append(chart(r, v)).append('\n');
            }
            b.append("</div>\n");
        }
        b.append("</section>\n");
    }

    /** The distribution of one metric, this over other, kept samples of all runs pooled. */
    static String chart(FeatureScenarioResult r, MetricVerdict v) {
        List<SvgChart.Strip> strips = List.of(
                new SvgChart.Strip("this", "this", kept(r, "this", v.metric()), v.thisMedian()),
                new SvgChart.Strip("other", "other", kept(r, "other", v.metric()), v.otherMedian()));
        String title = r.scenario() + " " + v.metric().label() + ": this is " + v.text();
        return SvgChart.distribution("distribution", v.metric().label(), title,
                v.metric().label() + " (" + v.metric().unit() + ")", strips);
    }

    private static double[] kept(FeatureScenarioResult r, String side, Metric metric) {
        List<Double> out = new ArrayList<>();
        for (SideOutcome o : r.runs()) {
            if (o instanceof SideOutcome.Measured m && m.side().equals(side)) {
                MetricSamples s = m.run().samples().get(metric);
                if (s != null) {
                    out.addAll(s.kept());
                }
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static List<String> paramNames(FeatureScenarioResult r) {
        LinkedHashSet<String> names = new LinkedHashSet<>(r.thisParams().keySet());
        names.addAll(r.otherParams().keySet());
        return List.copyOf(names);
    }

    private static String badge(FeatureScenarioResult r) {
        return "<span class=\"badge " + r.status().name() + "\">" + r.status().name() + "</span>";
    }

    private static String scale(double s) {
        return s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.2f", s);
    }

    private static String e(String s) {
        return Html.escape(s);
    }
}
