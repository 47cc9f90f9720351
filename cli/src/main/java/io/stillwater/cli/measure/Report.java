package io.stillwater.cli.measure;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A plain-text table: a title, a header row and data rows, columns padded to their widest
 * cell (first column left-aligned, the rest right-aligned), followed by notes.
 */
final class Report {
    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Report(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    Report row(String... cells) {
        if (cells.length != header.size()) throw new IllegalArgumentException("expected " + header.size() + " cells");
        rows.add(List.of(cells));
        return this;
    }

    Report note(String text) {
        notes.add(text);
        return this;
    }

    void print(PrintWriter out) {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> r : rows) width[c] = Math.max(width[c], r.get(c).length());
        }
        out.println();
        out.println(title);
        out.println("-".repeat(title.length()));
        line(out, header, width);
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < width.length; c++) rule.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        out.println(rule);
        for (List<String> r : rows) line(out, r, width);
        for (String n : notes) out.println("  " + n);
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            if (c > 0) b.append("  ");
            String cell = cells.get(c);
            String pad = " ".repeat(width[c] - cell.length());
            b.append(c == 0 ? cell + pad : pad + cell);
        }
        out.println(b.toString().stripTrailing());
    }

    /** Microseconds as milliseconds with three decimals; NaN as "-". */
    static String ms(double micros) {
        return Double.isNaN(micros) ? "-" : String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }

    static String count(long n) { return String.format(Locale.ROOT, "%,d", n); }

    static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "-" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    static String seconds(double s) { return String.format(Locale.ROOT, "%.2f", s); }
}
