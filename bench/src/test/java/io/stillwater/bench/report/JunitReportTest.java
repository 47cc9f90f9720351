package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.history.BenchFixtures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JunitReportTest {
    @Test
    void oneTestCasePerGatedStatPlusOnePerScenarioWithFailuresErrorsAndSkips() throws Exception {
        BenchReport r = ReportFixtures.report();
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(JunitReport.render(r).getBytes(StandardCharsets.UTF_8)));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");

        List<Element> cases = elements(doc.getElementsByTagName("testcase"));
        long gated = BenchFixtures.gatedStats(r.scenarios());
        assertThat(cases.stream().filter(c -> !c.getAttribute("name").equals(JunitReport.SCENARIO_CASE)))
                .hasSize((int) gated);
        assertThat(cases).hasSize((int) gated + r.scenarios().size());
        assertThat(cases).allSatisfy(c -> {
            assertThat(c.getAttribute("classname")).startsWith("bench.");
            assertThat(Double.parseDouble(c.getAttribute("time"))).isNotNegative();
        });

        // surefire shape: the counts on every suite and on the root agree with their test cases
        List<Element> suites = elements(doc.getElementsByTagName("testsuite"));
        assertThat(suites).hasSize(r.scenarios().size());
        for (Element suite : new ArrayList<>(suites) {{ add(root); }}) {
            List<Element> own = elements(suite.getElementsByTagName("testcase"));
            assertThat(Integer.parseInt(suite.getAttribute("tests"))).isEqualTo(own.size());
            assertThat(Integer.parseInt(suite.getAttribute("failures"))).isEqualTo(count(own, "failure"));
            assertThat(Integer.parseInt(suite.getAttribute("errors"))).isEqualTo(count(own, "error"));
            assertThat(Integer.parseInt(suite.getAttribute("skipped"))).isEqualTo(count(own, "skipped"));
            Double.parseDouble(suite.getAttribute("time"));
        }

        Element hostile = suite(suites, "bench." + ReportFixtures.HOSTILE);
        List<Element> failures = elements(hostile.getElementsByTagName("failure"));
        assertThat(failures).isNotEmpty().allSatisfy(f -> assertThat(f.getAttribute("type")).isEqualTo("regression"));
        assertThat(elements(hostile.getElementsByTagName("testcase")).stream()
                .filter(c -> c.getElementsByTagName("failure").getLength() > 0).map(c -> c.getAttribute("name")))
                .contains(BenchFixtures.LOOKUP + " :: p50");

        Element broken = suite(suites, "bench.Broken");
        assertThat(elements(broken.getElementsByTagName("error"))).singleElement()
                .satisfies(e -> assertThat(e.getAttribute("message")).contains("42P01"));
        Element invalid = suite(suites, "bench.Misrouted");
        assertThat(elements(invalid.getElementsByTagName("error"))).singleElement()
                .satisfies(e -> assertThat(e.getAttribute("type")).isEqualTo("invalid"));
        Element skipped = suite(suites, "bench.NeedsClusters");
        assertThat(elements(skipped.getElementsByTagName("skipped"))).singleElement()
                .satisfies(e -> assertThat(e.getAttribute("message")).contains("CLUSTERS"));
        Element quiet = suite(suites, "bench.PeekIsolation");
        assertThat(quiet.getAttribute("failures")).isEqualTo("0");
        // the noisy threshold passes but says so
        assertThat(elements(quiet.getElementsByTagName("system-out"))).singleElement()
                .satisfies(o -> assertThat(o.getTextContent()).contains("tighter than twice the calibrated")
                        .contains("+-30.0%"));
    }

    private static Element suite(List<Element> suites, String name) {
        return suites.stream().filter(s -> s.getAttribute("name").equals(name)).findFirst().orElseThrow();
    }

    private static long count(List<Element> cases, String kind) {
        return cases.stream().filter(c -> c.getElementsByTagName(kind).getLength() > 0).count();
    }

    private static List<Element> elements(NodeList list) {
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            out.add((Element) list.item(i));
        }
        return out;
    }
}
