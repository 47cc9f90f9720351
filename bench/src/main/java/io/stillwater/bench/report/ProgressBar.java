package io.stillwater.bench.report;

import java.io.Console;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A progress bar for a load phase (or any span of known expected length) on stderr. On a
 * terminal it redraws one line in place ({@code \r}); elsewhere (CI logs, pipes) it degrades to a
 * plain line every {@code lineInterval}, so logs stay readable. Progress is elapsed wall time
 * against the expected duration, capped at 100% (a phase ends when its last query finishes, which
 * may be later than planned: then the bar shows "finishing").
 *
 * <p>Threads: {@link #start} owns a daemon ticker thread that calls {@link #tick()}; the caller's
 * thread may call {@link #label(String)} and {@link #close()}. Every method synchronizes on the bar.
 * Set the system property {@code stillwater.progress} to {@code tty}, {@code lines} or {@code off}
 * to override the terminal detection.
 */
public final class ProgressBar implements AutoCloseable {
    private static final int BAR_WIDTH = 30;

    private final PrintStream out;
    private final boolean tty;
    private final boolean off;
    private final LongSupplier nanoClock;
    private final long expectedNanos;
    private final long lineIntervalNanos;
    private final long startNanos;
    private String label;
    private long lastLineNanos;
    private boolean closed;
    private ScheduledExecutorService ticker;

    ProgressBar(String label, Duration expected, PrintStream out, Mode mode, LongSupplier nanoClock,
            Duration lineInterval) {
        this.label = label;
        this.out = out;
        this.tty = mode == Mode.TTY;
        this.off = mode == Mode.OFF;
        this.nanoClock = nanoClock;
        this.expectedNanos = Math.max(1, expected.toNanos());
        this.lineIntervalNanos = lineInterval.toNanos();
        this.startNanos = nanoClock.getAsLong();
        this.lastLineNanos = startNanos;
    }

    enum Mode {
        TTY,
        LINES,
        OFF
    }

    /** Starts a bar on {@code out} (normally {@code System.err}) that redraws itself until closed. */
    public static ProgressBar start(String label, Duration expected, PrintStream out) {
        Mode mode = detect();
        ProgressBar bar = new ProgressBar(label, expected, out, mode, System::nanoTime, Duration.ofSeconds(10));
        if (mode != Mode.OFF) {
            bar.startTicker(mode == Mode.TTY ? Duration.ofMillis(250) : Duration.ofSeconds(1));
        }
        return bar;
    }

    private synchronized void startTicker(Duration period) {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress-bar");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    static Mode detect() {
        String forced = System.getProperty("stillwater.progress", "");
        switch (forced) {
            case "tty" -> {
                return Mode.TTY;
            }
            case "lines" -> {
                return Mode.LINES;
            }
            case "off" -> {
                return Mode.OFF;
            }
            default -> {
            }
        }
        Console console = System.console();
        if (console == null || "dumb".equals(System.getenv("TERM"))) {
            return Mode.LINES;
        }
        try {
            // JDK 22+ returns a Console even when redirected; isTerminal() tells the truth there
            Object terminal = Console.class.getMethod("isTerminal").invoke(console);
            return Boolean.TRUE.equals(terminal) ? Mode.TTY : Mode.LINES;
        } catch (ReflectiveOperationException e) {
            return Mode.TTY; // JDK 21: a console exists only for a terminal
        }
    }

    /** Changes what the bar says it is doing, e.g. "PoolRead this 2/3". */
    public synchronized void label(String newLabel) {
        this.label = newLabel;
    }

    /** Redraws (terminal) or prints a line when the interval has passed (otherwise). */
    public synchronized void tick() {
        if (closed || off) {
            return;
        }
        long now = nanoClock.getAsLong();
        String text = render(label, (now - startNanos) / 1e9, expectedNanos / 1e9);
        if (tty) {
            out.print("\r" + text + "\u001b[K");
            out.flush();
        } else if (now - lastLineNanos >= lineIntervalNanos) {
            lastLineNanos = now;
            out.println(text);
            out.flush();
        }
    }

    /** Stops redrawing and prints the final state once. */
    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = ticker;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (off) {
                return;
            }
            double elapsed = (nanoClock.getAsLong() - startNanos) / 1e9;
            String done = String.format(Locale.ROOT, "%s done in %.1f s", label, elapsed);
            out.println(tty ? "\r" + done + "\u001b[K" : done);
            out.flush();
        }
    }

    /** {@code label [##########..........]  33%  10.0/30 s}; "finishing" once past the expected time. */
    static String render(String label, double elapsedSeconds, double expectedSeconds) {
        double fraction = Math.max(0, Math.min(1, elapsedSeconds / expectedSeconds));
        String bar = bar(fraction);
        String tail = elapsedSeconds > expectedSeconds ? "finishing"
                : String.format(Locale.ROOT, "%3.0f%%", fraction * 100);
        return String.format(Locale.ROOT, "%s [%s] %s  %.1f/%.0f s", label, bar, tail, elapsedSeconds,
                expectedSeconds);
    }

    /** The bar itself for a fraction in [0, 1]: {@code ##########....................}. */
    public static String bar(double fraction) {
        int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * BAR_WIDTH);
        return "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
    }

    /** How progress is shown here: redrawn in place on a terminal, plain lines elsewhere, or not at all. */
    public enum Display {
        REDRAW,
        LINES,
        OFF
    }

    /** The display the terminal detection (and {@code -Dstillwater.progress}) chooses. */
    public static Display display() {
        return switch (detect()) {
            case TTY -> Display.REDRAW;
            case LINES -> Display.LINES;
            case OFF -> Display.OFF;
        };
    }
}
