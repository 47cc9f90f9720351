package io.stillwater.bench.feature.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every file report of a feature run into one directory (the CLI's {@code --results}), beside
 * the parallel bench's files under names of their own so neither overwrites the other.
 */
public final class FeatureReportFiles {
    public static final String HTML = "feature-report.html";
    public static final String JSON = "feature-report.json";
    public static final String JUNIT = "feature-junit.xml";

    /** The paths written. */
    public record Written(Path html, Path json, Path junit) {
    }

    private FeatureReportFiles() {
    }

    /** Creates {@code dir} if needed and writes feature-report.html, feature-report.json and feature-junit.xml. */
    public static Written writeAll(FeatureReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        Written w = new Written(dir.resolve(HTML), dir.resolve(JSON), dir.resolve(JUNIT));
        FeatureHtmlReport.write(report, w.html());
        FeatureJsonReport.write(report, w.json());
        FeatureJunitReport.write(report, w.junit());
        return w;
    }
}
