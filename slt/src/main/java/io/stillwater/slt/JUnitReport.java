package io.stillwater.slt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a run as JUnit XML for CI systems: one test suite per script file, with one test case
 * per record that did not succeed (failures as {@code <failure>}, unsupported records as
 * {@code <skipped>} unless they count as failures), one passing test case carrying the number
 * of successes, one skipped test case for the skipif/onlyif records, and the outcome counts
 * as a property. Suite attributes count test cases, so every consumer agrees with itself.
 */
final class JUnitReport {
    private JUnitReport() {}

    static void write(RunSummary summary, Path file) throws IOException {
        boolean strict = summary.unsupportedIsFailure();
        StringBuilder suites = new StringBuilder();
        int allTests = 0;
        int allFailures = 0;
        for (FileResult f : summary.files()) {
            StringBuilder cases = new StringBuilder();
            int tests = 0;
            int failures = 0;
            int skipped = 0;
            cases.append(String.format(Locale.ROOT, "    <testcase classname=\"%s\" name=\"%d records succeeded\"/>%n",
                    esc(f.file()), f.count(Outcome.SUCCESS)));
            tests++;
            if (f.count(Outcome.SKIPPED) > 0) {
                cases.append(String.format(Locale.ROOT,
                        "    <testcase classname=\"%s\" name=\"%d records skipped\"><skipped message=\"skipif/onlyif\"/></testcase>%n",
                        esc(f.file()), f.count(Outcome.SKIPPED)));
                tests++;
                skipped++;
            }
            if (!f.fatal().isEmpty()) {
                cases.append(String.format("    <testcase classname=\"%s\" name=\"file\"><failure type=\"error\" message=\"%s\"/></testcase>%n",
                        esc(f.file()), esc(f.fatal())));
                tests++;
                failures++;
            }
            for (Failure p : f.problems()) {
                tests++;
                cases.append(String.format("    <testcase classname=\"%s\" name=\"%s\">", esc(f.file()),
                        esc(p.location() + " " + p.outcome().label())));
                if (p.outcome().isFailure(strict)) {
                    failures++;
                    cases.append(String.format("<failure type=\"%s\" message=\"%s\">%s</failure>", p.outcome().label(),
                            esc(p.reason()), esc(p.describe())));
                } else {
                    skipped++;
                    cases.append(String.format("<skipped message=\"%s\"/>", esc(p.outcome().label() + ": " + p.reason())));
                }
                cases.append("</testcase>\n");
            }
            suites.append(String.format(Locale.ROOT,
                    "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.3f\">%n",
                    esc(f.file()), tests, failures, skipped, f.elapsed().toMillis() / 1000.0));
            suites.append(String.format("    <properties><property name=\"counts\" value=\"%s\"/></properties>%n",
                    esc(f.countsLine())));
            suites.append(cases).append("  </testsuite>\n");
            allTests += tests;
            allFailures += failures;
        }
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + String.format(Locale.ROOT, "<testsuites name=\"sqllogictest\" tests=\"%d\" failures=\"%d\" time=\"%.3f\">%n",
                        allTests, allFailures, summary.elapsed().toMillis() / 1000.0)
                + suites + "</testsuites>\n";
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Files.writeString(file, xml, StandardCharsets.UTF_8);
    }

    private static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        b.append('?'); // not representable in XML 1.0
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
