package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Opens an HTML report in headless Chromium and returns the DOM the browser built from it
 * ({@code --dump-dom}), for the tests that check what a user of the report sees. When Chromium is
 * absent the calling test is skipped (visibly, with the reason; never passed) unless the system
 * property {@code stillwater.requireChromium=true} is set (CI sets it, see {@code .ci/run}): then it
 * fails. {@code stillwater.chromium} overrides the binary (default {@code /usr/bin/chromium}).
 */
public final class HeadlessChromium {
    private HeadlessChromium() {
    }

    /**
     * Renders {@code html} in a 1280-pixel-wide headless browser and returns the rendered DOM; the
     * DOM is also written to {@code dom} and the browser's log beside it, for a person to inspect.
     */
    public static RenderedPage render(Path html, Path dom) throws Exception {
        Path chromium = Path.of(System.getProperty("stillwater.chromium", "/usr/bin/chromium"));
        if (!Files.isExecutable(chromium)) {
            if (Boolean.getBoolean("stillwater.requireChromium")) {
                fail("stillwater.requireChromium=true but there is no executable Chromium at " + chromium
                        + " (install the chromium package, or point -Dstillwater.chromium at the binary)");
            }
            Assumptions.abort("no Chromium at " + chromium + "; set -Dstillwater.requireChromium=true to make"
                    + " this a failure");
        }
        Path dir = dom.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.deleteIfExists(dom);
        Path log = dir.resolve(dom.getFileName() + ".chromium.log");
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        // the DOM goes to stdout, the browser's own messages to the log
        Process p = new ProcessBuilder(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
                "--window-size=1280,4000", "--dump-dom", html.toUri().toString()))
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        try {
            // a guard against a hung browser, not a timing assertion
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                fail("headless Chromium did not finish within 180 s; see " + log);
            }
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        assertThat(p.exitValue()).as("chromium exit code; log in " + log).isZero();
        return new RenderedPage(Files.readString(dom));
    }
}
