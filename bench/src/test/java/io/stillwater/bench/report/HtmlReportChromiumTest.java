package io.stillwater.bench.report;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Renders the parallel bench's HTML report in headless Chromium ({@link HeadlessChromium}) and
 * takes a screenshot into {@code target/html-report/report.png}.
 */
class HtmlReportChromiumTest {
    @Test
    void theReportRendersInHeadlessChromium() throws Exception {
        Path dir = Path.of("target", "html-report").toAbsolutePath();
        ReportFiles.Written written = ReportFiles.writeAll(ReportFixtures.report(), dir);
        HeadlessChromium.screenshot(written.html(), dir.resolve("report.png"));
    }
}
