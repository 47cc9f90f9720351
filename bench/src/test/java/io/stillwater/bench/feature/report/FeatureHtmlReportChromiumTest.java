package io.stillwater.bench.feature.report;

import io.stillwater.bench.report.HeadlessChromium;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Renders the feature bench's HTML report (verdict table and the per-scenario distributions) in
 * headless Chromium and takes a screenshot into {@code target/html-report/feature-report.png}.
 */
class FeatureHtmlReportChromiumTest {
    @Test
    void theFeatureReportRendersInHeadlessChromium() throws Exception {
        Path dir = Path.of("target", "html-report").toAbsolutePath();
        FeatureReportFiles.Written written = FeatureReportFiles.writeAll(FeatureFixtures.report(), dir);
        HeadlessChromium.screenshot(written.html(), dir.resolve("feature-report.png"));
    }
}
