package io.stillwater.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes every file report of a run into one directory (the CLI's {@code results/}). */
public final class ReportFiles {
    public static final String HTML = "report.html";
    public static final String JSON = "report.json";
    public static final String JUNIT = "junit.xml";

    /** The paths written. */
    public record Written(Path html, Path json, Path junit) {
    }

    private ReportFiles() {
    }

    /** Creates {@code dir} if needed and writes report.html, report.json and junit.xml into it. */
    public static Written writeAll(BenchReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        Written w = new Written(dir.resolve(HTML), dir.resolve(JSON), dir.resolve(JUNIT));
        HtmlReport.write(report, w.html());
        JsonReport.write(report, w.json());
        JunitReport.write(report, w.junit());
        return w;
    }
}
