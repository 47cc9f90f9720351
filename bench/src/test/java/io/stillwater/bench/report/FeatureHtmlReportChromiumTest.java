package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.report.RenderedPage.Chart;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Opens the feature bench's HTML report (written from {@link FeatureFixtures#report()}) in
 * headless Chromium and checks what a user sees in the rendered DOM: the summary, the verdict
 * table's headers, rows, numbers and verdicts, each scenario's section, and per measured metric an
 * SVG distribution chart with the samples, the quartile boxes, the medians and the axis label. The
 * DOM is kept in {@code target/html-report/feature-report.dom.html}.
 */
class FeatureHtmlReportChromiumTest {
    @Test
    void aUserSeesTheVerdictTableAndTheDistributions() throws Exception {
        Path dir = Path.of("target", "html-report").toAbsolutePath();
        ReportFiles.Written written = ReportFiles.writeAll(FeatureFixtures.report(), dir);
        RenderedPage page = HeadlessChromium.render(written.html(), dir.resolve("feature-report.dom.html"));
        String text = page.text();

        assertThat(text).contains(
                "4 scenarios: 1 passed, 1 regressed, 1 failed, 1 skipped; the run FAILS (a scenario regressed or failed)");
        // the verdict table: headers, then per metric the medians (with sample counts), unit, threshold, verdict
        assertThat(text).contains("name metric this other unit threshold calibrated spread verdict 'this' is",
                "PeekDataflowJoin wallclock 12.5 (n=12) 10.0 (n=12) ms 10% REGRESSION 25% slower",
                "memory_heap 120 (n=12) 120 (n=12) MiB 20% ok within 20%",
                "memory_rss 600 (n=14) - MiB 20% not compared not measured on other",
                "Filter<Index>&\"Co\" wallclock 4.00 (n=6) 10.0 (n=6) ms 10% improvement 2.5 times faster",
                "ManyIndexesRestart SKIPPED url:postgresql://pg/db cannot be restarted",
                "CreateIndex FAILED other run 1: CREATE INDEX i ON t (f1) failed: out of memory (SQLSTATE 53200)");
        // each scenario's section with its status and parameters
        assertThat(text).contains("PeekDataflowJoin 1.0.0 · InteractiveRuntime · SCALE 4 REGRESSED",
                "Filter<Index>&\"Co\" 2.1.0 · FastPath / Filter · SCALE 3 PASSED",
                "enable_compute_interactive_runtime on off",
                "other run 1 failed: CREATE INDEX i ON t (f1) failed: out of memory (SQLSTATE 53200)");
        assertThat(page.openingTags("script")).isEmpty();

        // PeekDataflowJoin: wallclock, memory_heap, memory_rss; Filter: wallclock, memory_heap
        List<Chart> charts = page.charts();
        assertThat(charts).hasSize(5).allSatisfy(c -> assertThat(c.cssClass()).isEqualTo("chart distribution"));
        for (Chart c : charts) {
            assertThat(c.count("rect", "plot")).isEqualTo(1);
            assertThat(c.count("circle", "this")).as("this side's samples").isPositive();
            assertThat(c.count("rect", "box this")).as("this side's quartile box").isEqualTo(1);
            assertThat(c.count("line", "median this")).as("this side's median").isEqualTo(1);
        }
        Chart wallclock = charts.getFirst();
        assertThat(wallclock.axisLabels()).containsExactly("wallclock (ms)");
        assertThat(wallclock.count("circle", "dot this")).as("6 kept samples per run, 2 runs pooled").isEqualTo(12);
        assertThat(wallclock.count("circle", "dot other")).isEqualTo(12);
        assertThat(wallclock.count("rect", "box other")).isEqualTo(1);
        assertThat(charts.get(1).axisLabels()).containsExactly("memory_heap (MiB)");
        // memory_rss was not measured on the other side: no other samples, no other box
        assertThat(charts.get(2).axisLabels()).containsExactly("memory_rss (MiB)");
        assertThat(charts.get(2).count("circle", "other")).isZero();
    }
}
