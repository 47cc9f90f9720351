package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Renders an HTML report in headless Chromium into a PNG screenshot, for the tests that check a
 * report renders in a real browser. When Chromium is absent the calling test is skipped (visibly,
 * never passed) unless the system property {@code stillwater.requireChromium=true} is set (CI sets
 * it): then it fails. {@code stillwater.chromium} overrides the binary (default
 * {@code /usr/bin/chromium}).
 */
public final class HeadlessChromium {
    private HeadlessChromium() {
    }

    /**
     * Renders {@code html} into {@code screenshot} (a 1280-pixel-wide page) and asserts a PNG came
     * out; the browser's log is written beside the screenshot.
     */
    public static void screenshot(Path html, Path screenshot) throws Exception {
        Path chromium = Path.of(System.getProperty("stillwater.chromium", "/usr/bin/chromium"));
        if (!Files.isExecutable(chromium)) {
            if (Boolean.getBoolean("stillwater.requireChromium")) {
                fail("stillwater.requireChromium=true but there is no executable Chromium at " + chromium
                        + " (install the chromium package, or point -Dstillwater.chromium at the binary)");
            }
            Assumptions.abort("no Chromium at " + chromium + "; set -Dstillwater.requireChromium=true to make"
                    + " this a failure");
        }
        Path dir = screenshot.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.deleteIfExists(screenshot);
        Path log = dir.resolve(screenshot.getFileName() + ".chromium.log");
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        Process p = new ProcessBuilder(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
                "--window-size=1280,4000", "--screenshot=" + screenshot.toAbsolutePath(), html.toUri().toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // a guard against a hung browser, not a timing assertion
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                fail("headless Chromium did not finish within 180 s; see " + log);
            }
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        assertThat(p.exitValue()).as("chromium exit code; log in " + log).isZero();
        assertThat(screenshot).exists();
        assertThat(Files.size(screenshot)).isPositive();
        // a PNG, not an error page written somewhere else
        byte[] head = new byte[8];
        try (var in = Files.newInputStream(screenshot)) {
            assertThat(in.read(head)).isEqualTo(8);
        }
        assertThat(head).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }
}
