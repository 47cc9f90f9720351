package io.stillwater.cli.measure;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * The live objects of this JVM by class, as {@code jcmd <pid> GC.class_histogram} prints them
 * (a full collection first, so only reachable objects count), taken in-process through the
 * {@code DiagnosticCommand} MBean. Two of them, before and after filling a table, say where a
 * row's live heap went, the engine's own structures included (not only the batches JOL walks).
 *
 * @param bytesByClass bytes of the live objects of each class (JVM names: {@code [I} is int[])
 */
record HeapHistogram(Map<String, Long> bytesByClass) {
    private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+).*$");

    static HeapHistogram take() {
        try {
            String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return parse(text);
        } catch (Exception e) {
            throw new IllegalStateException("class histogram unavailable: " + e.getMessage(), e);
        }
    }

    static HeapHistogram parse(String text) {
        Map<String, Long> out = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) out.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
        }
        return new HeapHistogram(out);
    }

    /** The {@code n} classes whose live bytes grew most since {@code before}, largest first. */
    List<Map.Entry<String, Long>> largestGrowth(HeapHistogram before, int n) {
        List<Map.Entry<String, Long>> growth = new ArrayList<>();
        bytesByClass.forEach((c, b) -> {
            long d = b - before.bytesByClass.getOrDefault(c, 0L);
            if (d > 0) growth.add(Map.entry(c, d));
        });
        growth.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        return growth.subList(0, Math.min(n, growth.size()));
    }

    /** Prints the classes that grew most, in bytes per row. */
    static void printGrowth(java.io.PrintWriter out, HeapHistogram before, HeapHistogram after, long rows, int n) {
        Report r = new Report("Live heap growth by class (GC.class_histogram after minus before)",
                "class", "bytes/row");
        for (Map.Entry<String, Long> e : after.largestGrowth(before, n)) {
            r.row(e.getKey(), String.format(Locale.ROOT, "%.1f", e.getValue() / (double) rows));
        }
        r.note("JVM class names: [I = int[], [J = long[], [B = byte[], [Ljava.lang.Object; = Object[]").print(out);
    }
}
