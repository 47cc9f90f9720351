package io.stillwater.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DOM a browser built from a report, as {@link HeadlessChromium} dumped it, reduced to what the
 * tests ask of it: the text a user reads and the SVG charts. Parsing is by pattern, which is enough
 * for the reports' own markup: charts are never nested, and the dump is well formed.
 */
public record RenderedPage(String dom) {
    private static final Pattern SVG = Pattern.compile("<svg\\b.*?</svg>", Pattern.DOTALL);
    private static final Pattern INVISIBLE = Pattern.compile(
            "<(style|script|title)\\b.*?</\\1>|<svg\\b.*?</svg>", Pattern.DOTALL);
    private static final Pattern TAG = Pattern.compile("<[^>]+>");

    /**
     * The visible text of the page outside the charts, entities decoded, each run of white space
     * (also between table cells) one space: "avg ms 3.48 2.16 +61.1% 50% REGRESSION".
     */
    public String text() {
        return flatten(INVISIBLE.matcher(dom).replaceAll(" "));
    }

    /** The elements named {@code tag} (e.g. "script"), each as its opening tag. */
    public List<String> openingTags(String tag) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + tag + "\\b[^>]*>").matcher(dom);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** Every SVG chart in the page, in page order. */
    public List<Chart> charts() {
        List<Chart> out = new ArrayList<>();
        Matcher m = SVG.matcher(dom);
        while (m.find()) {
            out.add(new Chart(m.group()));
        }
        return out;
    }

    /** One {@code <svg>} element with everything inside it. */
    public record Chart(String markup) {
        /** The class attribute of the {@code <svg>} itself, e.g. "chart percentiles". */
        public String cssClass() {
            Matcher m = Pattern.compile("^<svg\\b[^>]*?\\bclass=\"([^\"]*)\"").matcher(markup);
            return m.find() ? m.group(1) : "";
        }

        /** The {@code data-action} or {@code data-metric} attribute of the {@code <svg>}: what it plots. */
        public String subject() {
            Matcher m = Pattern.compile("^<svg\\b[^>]*?\\bdata-(?:action|metric)=\"([^\"]*)\"").matcher(markup);
            return m.find() ? flatten(m.group(1)) : "";
        }

        /** How many {@code <tag ... class="...cls...">} elements the chart holds. */
        public long count(String tag, String cls) {
            return Pattern.compile("<" + tag + "\\b[^>]*\\bclass=\"[^\"]*\\b" + Pattern.quote(cls) + "\\b[^\"]*\"")
                    .matcher(markup).results().count();
        }

        /** How many {@code <tag>} elements the chart holds, whatever their class. */
        public long count(String tag) {
            return Pattern.compile("<" + tag + "\\b").matcher(markup).results().count();
        }

        /** The texts of the chart's axis labels, in order. */
        public List<String> axisLabels() {
            return Pattern.compile("<text\\b[^>]*\\bclass=\"axis-label\"[^>]*>(.*?)</text>", Pattern.DOTALL)
                    .matcher(markup).results().map(r -> flatten(r.group(1))).toList();
        }
    }

    private static String flatten(String html) {
        String text = TAG.matcher(html).replaceAll(" ")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&nbsp;", " ").replace("&amp;", "&");
        return text.replaceAll("\\s+", " ").strip();
    }
}
