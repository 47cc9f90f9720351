package io.stillwater.bench.report;

/** Escaping for HTML text, attribute values and inline SVG (which is XML): every report string goes through here. */
public final class Html {
    private Html() {
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
