package io.stillwater.bench.report;

import static io.stillwater.bench.report.FeatureFixtures.ODD_NAME;
import static io.stillwater.bench.report.FeatureFixtures.PARAM;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class FeatureReportsTest {
    private final FeatureReport report = FeatureFixtures.report();

    @Test
    void theTerminalTableHasARowPerMetricWithVerdictTextsParamsAndReasons() {
        String t = FeatureTerminalTable.render(report);
        assertThat(t).contains("this:  dev (embedded)").contains("other: dev (embedded; " + PARAM + "=false)");
        assertThat(t).containsPattern("NAME +METRIC +THIS +OTHER +UNIT +THRESHOLD +VERDICT +'THIS' IS");
        assertThat(t).containsPattern("PeekDataflowJoin +wallclock +12\\.5 \\(n=12\\) +10\\.0 \\(n=12\\) +ms +10% "
                + "+REGRESSION +25% slower");
        assertThat(t).containsPattern("memory_rss +600 \\(n=14\\) +- +MiB +20% +not compared +not measured on other");
        assertThat(t).contains("2.5 times faster").contains("within 20%");
        assertThat(t).contains(PARAM + ": this=on other=off");
        assertThat(t).contains("ManyIndexesRestart").contains("SKIPPED: url:postgresql://pg/db cannot be restarted");
        assertThat(t).contains("CreateIndex").contains("FAILED: other run 1: CREATE INDEX i ON t (f1) failed");
        assertThat(t).contains("2 runs per side: the first run regressed");
        assertThat(t).contains("note: this run 2, other run 2 stopped at --max-measurements 12 before the median's "
                + "confidence interval was narrow enough");
        assertThat(t).contains("4 scenarios: 1 passed, 1 regressed, 1 failed, 1 skipped; the run FAILS");
    }

    @Test
    void theJsonParsesAndHoldsEverySampleKeptAndDiscardedWithVerdictsAndParams() throws Exception {
        JsonNode json = new ObjectMapper().readTree(FeatureJsonReport.render(report));
        assertThat(json.path("format").asText()).isEqualTo(FeatureJsonReport.FORMAT);
        assertThat(json.path("run").path("other").path("params").path(PARAM).asText()).isEqualTo("false");
        assertThat(json.path("run").path("maxMeasurements").asInt()).isEqualTo(12);
        assertThat(json.path("run").path("historyRunId").asLong()).isEqualTo(7);
        assertThat(json.path("summary").path("green").asBoolean()).isFalse();
        assertThat(json.path("scenarios")).hasSize(4);

        // every sample of the fixture is in the JSON, value for value, in order
        List<Double> expected = new ArrayList<>();
        List<Double> actual = new ArrayList<>();
        for (int i = 0; i < report.scenarios().size(); i++) {
            FeatureScenarioResult r = report.scenarios().get(i);
            JsonNode runs = json.path("scenarios").get(i).path("runs");
            assertThat(runs).hasSize(r.runs().size());
            for (int k = 0; k < r.runs().size(); k++) {
                if (r.runs().get(k) instanceof SideOutcome.Measured m) {
                    m.run().samples().values().forEach(s -> {
                        expected.addAll(s.discarded());
                        expected.addAll(s.kept());
                    });
                    runs.get(k).path("samples").forEach(metric -> {
                        metric.path("discarded").forEach(v -> actual.add(v.asDouble()));
                        metric.path("kept").forEach(v -> actual.add(v.asDouble()));
                    });
                }
            }
        }
        assertThat(actual).hasSize((int) FeatureFixtures.sampleCount(report.scenarios())).isEqualTo(expected);

        JsonNode peek = json.path("scenarios").get(0);
        assertThat(peek.path("params").path("this").path(PARAM).asText()).isEqualTo("on");
        assertThat(peek.path("params").path("other").path(PARAM).asText()).isEqualTo("off");
        assertThat(peek.path("verdicts").get(0).path("text").asText()).isEqualTo("25% slower");
        assertThat(peek.path("verdicts").get(0).path("outcome").asText()).isEqualTo("REGRESSION");
        // a side that did not measure a metric has a null median, never NaN
        assertThat(peek.path("verdicts").get(2).path("other").path("median").isNull()).isTrue();
        assertThat(peek.path("runs").get(0).path("effectiveParams").path(PARAM).asText()).isEqualTo("on");
        assertThat(json.path("scenarios").get(3).path("runs").get(1).path("error").asText()).contains("SQLSTATE 53200");
    }

    @Test
    void theJunitXmlFailsRegressionsErrsOnFailuresAndSkipsSkippedScenarios() throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(FeatureJunitReport.render(report).getBytes(StandardCharsets.UTF_8)));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");
        NodeList suites = root.getElementsByTagName("testsuite");
        assertThat(suites.getLength()).isEqualTo(4);
        // 3 + 2 metric cases, plus one scenario case each
        assertThat(root.getAttribute("tests")).isEqualTo("9");
        NodeList failures = root.getElementsByTagName("failure");
        assertThat(failures.getLength()).isEqualTo(1);
        Element failure = (Element) failures.item(0);
        assertThat(failure.getAttribute("type")).isEqualTo("regression");
        assertThat(failure.getAttribute("message")).contains("wallclock regressed: this is 25% slower");
        assertThat(failure.getTextContent()).contains(PARAM + ": this=on other=off");
        assertThat(((Element) failure.getParentNode()).getAttribute("classname")).isEqualTo("feature.PeekDataflowJoin");
        NodeList errors = root.getElementsByTagName("error");
        assertThat(errors.getLength()).isEqualTo(1);
        assertThat(((Element) errors.item(0).getParentNode().getParentNode()).getAttribute("name"))
                .isEqualTo("feature.CreateIndex");
        // RSS not compared + the skipped scenario
        assertThat(root.getAttribute("skipped")).isEqualTo("2");
        assertThat(((Element) suites.item(1)).getAttribute("name")).isEqualTo("feature." + ODD_NAME);
    }

    @Test
    void theHtmlHasADistributionChartPerScenarioMetricAndEscapesNames() {
        String html = FeatureHtmlReport.render(report);
        int metrics = report.scenarios().stream().mapToInt(s -> s.verdicts().size()).sum();
        assertThat(count(html, "<svg ")).isEqualTo(metrics);
        assertThat(html).contains("data-metric=\"wallclock\"").contains("data-metric=\"memory_rss\"");
        assertThat(html).doesNotContain(ODD_NAME).contains("Filter&lt;Index&gt;&amp;&quot;Co&quot;");
        assertThat(html).contains(PARAM).contains("25% slower").contains("2.5 times faster");
        // this' wallclock chart of PeekDataflowJoin has one dot per kept sample of both runs of each side
        Matcher m = Pattern.compile("<svg [^>]*data-metric=\"wallclock\".*?</svg>", Pattern.DOTALL).matcher(html);
        assertThat(m.find()).isTrue();
        assertThat(count(m.group(), "<circle class=\"dot this\"")).isEqualTo(12);
        assertThat(count(m.group(), "<circle class=\"dot other\"")).isEqualTo(12);
        assertThat(count(m.group(), "<line class=\"median")).isEqualTo(2);
    }

    @Test
    void theFilesGoUnderTheirOwnNamesBesideTheParallelBenchs(@TempDir Path dir) throws Exception {
        ReportFiles.Written w = ReportFiles.writeAll(report, dir.resolve("results"));
        assertThat(w.html().getFileName().toString()).isEqualTo("feature-report.html");
        assertThat(w.json().getFileName().toString()).isEqualTo("feature-report.json");
        assertThat(w.junit().getFileName().toString()).isEqualTo("feature-junit.xml");
        assertThat(Files.readString(w.json())).isEqualTo(FeatureJsonReport.render(report));
        assertThat(Files.readString(w.junit())).isEqualTo(FeatureJunitReport.render(report));
        assertThat(Files.size(w.html())).isPositive();
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
