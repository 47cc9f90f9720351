package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.history.BenchFixtures;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);

    @Test
    void oneLatencyChartAndOnePercentileChartPerAction() {
        BenchReport r = ReportFixtures.report();
        String html = HtmlReport.render(r);
        int actions = ReportFixtures.actionCharts(r);
        assertThat(actions).isEqualTo(2 + 2 + 2 + 3); // PeekIsolation, hostile, Misrouted, OnlyThis
        assertThat(occurrences(html, "<svg class=\"chart latency-over-time\"")).isEqualTo(actions);
        assertThat(occurrences(html, "<svg class=\"chart percentiles\"")).isEqualTo(actions);
        // both sides drawn where both ran
        assertThat(html).contains("<polyline class=\"this\"", "<polyline class=\"other\"");
        // failures on this side's lookup are marked
        assertThat(html).contains("class=\"fail this\"");
    }

    @Test
    void everyChartIsWellFormedSvg() throws Exception {
        String html = HtmlReport.render(ReportFixtures.report());
        Matcher m = SVG.matcher(html);
        int n = 0;
        while (m.find()) {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.UTF_8)));
            assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
            n++;
        }
        assertThat(n).isEqualTo(2 * ReportFixtures.actionCharts(ReportFixtures.report()));
    }

    @Test
    void scenarioNamesAndErrorsAreEscapedAndNothingIsFetched() {
        String html = HtmlReport.render(ReportFixtures.report());
        assertThat(html).doesNotContain("<script").doesNotContain("alert('x')");
        assertThat(html).contains("Slow&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;Co");
        assertThat(html).contains("relation &quot;t&quot; does not exist");
        // self-contained: no external resources
        assertThat(html).doesNotContain("src=", "<link", "url(", "@import");
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http");
    }

    @Test
    void verdictTableShowsThresholdsSpreadsAndFlagsNoisyOnes() {
        String html = HtmlReport.render(ReportFixtures.report());
        assertThat(html).contains("<th>calibrated spread</th>");
        assertThat(occurrences(html, "<tr class=\"ok noisy\">")).isEqualTo(1);
        assertThat(html).contains("&plusmn;30.0% <span class=\"flag\"");
        assertThat(html).contains("<tr class=\"regression\">");
        assertThat(html).contains("<span class=\"badge INVALID\">INVALID</span>");
    }

    @Test
    void comparedToHistoryThePercentileChartUsesTheStoredHistograms(@TempDir Path dir) {
        ScenarioComparison stored = BenchFixtures.twoActions("Read", 1.0);
        StoredScenario fromHistory;
        try (HistoryStore h = HistoryStore.open(dir.resolve("history.sqlite"))) {
            ComparisonHistory.record(h, BenchFixtures.runInfo("main", RunMode.COMPARE), List.of(stored));
            fromHistory = h.statsFor("main", "Read").orElseThrow();
        }
        ScenarioComparison fresh = BenchFixtures.compare("Read", BenchFixtures.twoActions("Read", 1.0).thisRuns(),
                List.of());
        BenchReport r = BenchReport.of(BenchFixtures.runInfo("feature-x", RunMode.COMPARE_TO_HISTORY), List.of(fresh))
                .withOtherFromHistory(Map.of("Read", fromHistory));
        String html = HtmlReport.render(r);
        assertThat(html).contains("other (history)");
        Matcher m = Pattern.compile("<svg class=\"chart percentiles\".*?</svg>", Pattern.DOTALL).matcher(html);
        assertThat(m.find()).isTrue();
        assertThat(m.group()).contains("<polyline class=\"other\"");
    }

    @Test
    void ninesLabels() {
        assertThat(List.of(HtmlReport.nines(1), HtmlReport.nines(2), HtmlReport.nines(3), HtmlReport.nines(4)))
                .containsExactly("90%", "99%", "99.9%", "99.99%");
    }

    static int occurrences(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
