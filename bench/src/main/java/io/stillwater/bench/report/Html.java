package io.stillwater.bench.report;

import io.stillwater.bench.history.RunInfo;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Escaping for HTML text, attribute values and inline SVG (which is XML): every report string goes through here.
 * Also the page frame and metadata rows both HTML reports (bench and feature bench) share.
 */
public final class Html {
    private Html() {
    }

    /** Opens a self-contained page: head with {@code title} and the inline {@code css}, then {@code <header><h1>}. */
    public static void pageStart(StringBuilder b, String title, String css) {
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(escape(title)).append("</title>\n<style>\n").append(css)
                .append("</style>\n</head>\n<body>\n<header>\n<h1>").append(escape(title)).append("</h1>\n");
    }

    /** Closes what {@link #pageStart} opened, after the caller's {@code <main>}. */
    public static void pageEnd(StringBuilder b) {
        b.append("</main>\n</body>\n</html>\n");
    }

    /** One row of a metadata table ({@code <table class="meta">}). */
    public static void meta(StringBuilder b, String key, String value) {
        b.append("<tr><th>").append(escape(key)).append("</th><td>").append(escape(value)).append("</td></tr>\n");
    }

    /** The host description as {@code k=v, k=v}. */
    public static String host(Map<String, String> host) {
        StringBuilder b = new StringBuilder();
        host.forEach((k, v) -> b.append(b.isEmpty() ? "" : ", ").append(k).append('=').append(v));
        return b.toString();
    }

    /** When the run finished and, in parentheses, how long it took. */
    public static String finished(RunInfo run) {
        return run.finished() + " (" + human(Duration.between(run.started(), run.finished())) + ")";
    }

    /** A run's length for people: "12.3 s" under a minute, else "4 min 5 s". */
    public static String human(Duration d) {
        long ms = d.toMillis();
        return ms < 60_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0)
                : String.format(Locale.ROOT, "%d min %d s", ms / 60_000, (ms / 1000) % 60);
    }

    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    // control characters are not allowed in HTML text or XML; show a replacement
                    boolean ok = cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp != 0x7F
                            && !(cp >= 0x80 && cp <= 0x9F) && cp != 0xFFFE && cp != 0xFFFF);
                    b.appendCodePoint(ok ? cp : 0xFFFD);
                }
            }
        });
        return b.toString();
    }
}
