package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void theBarFillsWithElapsedTimeAndSaysFinishingWhenOverdue() {
        assertThat(ProgressBar.render("load", 0, 30)).isEqualTo("load [" + ".".repeat(30) + "]   0%  0.0/30 s");
        assertThat(ProgressBar.render("load", 15, 30)).isEqualTo(
                "load [" + "#".repeat(15) + ".".repeat(15) + "]  50%  15.0/30 s");
        assertThat(ProgressBar.render("load", 31, 30)).isEqualTo("load [" + "#".repeat(30) + "] finishing  31.0/30 s");
    }

    @Test
    void withoutATerminalItPrintsAPlainLinePerIntervalAndADoneLine() {
        AtomicLong clock = new AtomicLong(0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressBar bar = new ProgressBar("PoolRead this 1/2", Duration.ofSeconds(30), out, ProgressBar.Mode.LINES,
                clock::get, Duration.ofSeconds(10));
        clock.set(5_000_000_000L);
        bar.tick();
        clock.set(10_000_000_000L);
        bar.tick();
        clock.set(12_000_000_000L);
        bar.tick();
        bar.label("PoolRead other 1/2");
        clock.set(21_000_000_000L);
        bar.tick();
        bar.close();
        bar.tick(); // after close: nothing
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\r").doesNotContain("\u001b");
        assertThat(text.lines()).containsExactly(
                ProgressBar.render("PoolRead this 1/2", 10, 30),
                ProgressBar.render("PoolRead other 1/2", 21, 30),
                "PoolRead other 1/2 done in 21.0 s");
    }

    @Test
    void onATerminalItRedrawsInPlace() {
        AtomicLong clock = new AtomicLong(0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressBar bar = new ProgressBar("load", Duration.ofSeconds(10), out, ProgressBar.Mode.TTY, clock::get,
                Duration.ofSeconds(10));
        clock.set(1_000_000_000L);
        bar.tick();
        clock.set(2_000_000_000L);
        bar.tick();
        bar.close();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("\r" + ProgressBar.render("load", 1, 10) + "\u001b[K\r"
                + ProgressBar.render("load", 2, 10));
        assertThat(text).endsWith("load done in 2.0 s\u001b[K" + System.lineSeparator());
    }
}
