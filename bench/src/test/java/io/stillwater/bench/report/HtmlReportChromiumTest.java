package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.report.RenderedPage.Chart;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Opens the parallel bench's HTML report (written from {@link ReportFixtures#report()}, seeded
 * data) in headless Chromium and checks what a user sees in the rendered DOM: the summary, every
 * scenario with its verdict, the verdict table's headers, rows and numbers, and per action the two
 * SVG charts with their data lines and axis labels. The DOM is kept in
 * {@code target/html-report/report.dom.html}.
 */
class HtmlReportChromiumTest {
    @Test
    void aUserSeesTheVerdictsNumbersAndChartsOfEveryScenario() throws Exception {
        Path dir = Path.of("target", "html-report").toAbsolutePath();
        ReportFiles.Written written = ReportFiles.writeAll(ReportFixtures.report(), dir);
        RenderedPage page = HeadlessChromium.render(written.html(), dir.resolve("report.dom.html"));
        String text = page.text();

        assertThat(text).contains("Stillwater bench: feature-x vs main",
                "6 scenarios: 2 passed, 1 regressed, 0 violated, 1 failed, 1 invalid, 1 skipped - FAIL");
        // the scenario list, each with its verdict
        assertThat(text).contains("PeekIsolation PASSED", "Slow<script>alert('x')</script>&Co REGRESSED",
                "Broken FAILED", "NeedsClusters SKIPPED", "Misrouted INVALID", "OnlyThis PASSED");
        // the scenario name is text, never markup that ran: the page has no script at all
        assertThat(page.openingTags("script")).isEmpty();
        // the verdict table: headers, then per stat this, other, change, threshold, verdict
        assertThat(text).contains("stat this other change threshold calibrated spread verdict",
                "avg ms 3.48 2.16 +61.1% 50% REGRESSION",
                "p50 ms 2.03 2.00 +1.5% 50% ±30.0% ⚠ noisy ok",
                "queries 2002 2000 +0.1% ungated -",
                "error_rate 0.07% 0.00% - +0.01 ok");
        assertThat(text).contains("regressed SELECT v FROM hot WHERE k = 42 (pooled): avg, p50, p95",
                "this run 1 FAILED: phase 2 (load): 42P01: relation \"t\" does not exist",
                "this run 1 SKIPPED: target lacks [CLUSTERS]");

        List<Chart> charts = page.charts();
        assertThat(charts).hasSize(18); // latency over time and percentiles per action and scenario
        assertThat(charts).filteredOn(c -> c.cssClass().equals("chart latency-over-time")).hasSize(9);
        assertThat(charts).filteredOn(c -> c.cssClass().equals("chart percentiles")).hasSize(9);
        for (Chart c : charts) {
            assertThat(c.count("rect", "plot")).as(c.cssClass()).isEqualTo(1);
            assertThat(c.axisLabels()).as(c.cssClass()).hasSize(2).contains("latency, ms (log)");
        }
        // every chart has the this side's data lines, except Misrouted's four (the 5th scenario with
        // charts; its runs are INVALID: their samples are not plotted, the axes are)
        assertThat(charts).filteredOn(c -> c.count("polyline", "this") > 0).hasSize(14);
        assertThat(charts.subList(8, 12)).allSatisfy(c -> assertThat(c.count("polyline")).isZero());
        // the first scenario (PeekIsolation): per action a latency-over-time and a percentile chart
        Chart overTime = charts.getFirst();
        assertThat(overTime.cssClass()).isEqualTo("chart latency-over-time");
        assertThat(overTime.axisLabels()).containsExactly("time since the first load phase, s", "latency, ms (log)");
        assertThat(overTime.count("polyline", "this")).as("this side's median and maximum lines").isEqualTo(2);
        assertThat(overTime.count("polyline", "other")).as("the other side's median and maximum lines").isEqualTo(2);
        assertThat(charts.get(1).cssClass()).isEqualTo("chart percentiles");
        assertThat(charts.get(1).axisLabels()).containsExactly("percentile", "latency, ms (log)");
        // failed queries (2 of 2002 on this side) are marked on the action that had them
        assertThat(charts.subList(0, 4)).filteredOn(c -> c.count("line", "fail") > 0)
                .extracting(Chart::subject).containsOnly("SELECT v FROM hot WHERE k = 42 (pooled)");
        // the action only OnlyThis's this side ran: this side's lines, none of the other side
        assertThat(charts.subList(12, 18)).filteredOn(c -> c.subject().equals("SELECT 1 (standalone)"))
                .hasSize(2).allSatisfy(c -> {
                    assertThat(c.count("polyline", "this")).isPositive();
                    assertThat(c.count("polyline", "other")).isZero();
                });
    }
}
