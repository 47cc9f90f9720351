package io.stillwater.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every file report of a run into one directory (the CLI's {@code --results}): the HTML
 * page, the JSON tree and the JUnit XML, under each benchmark's own {@link Names} so that the
 * parallel and the feature bench can share a directory without overwriting each other.
 */
public final class ReportFiles {
    /** The three file names of one benchmark's report. */
    public record Names(String html, String json, String junit) {
    }

    /** The parallel bench's files. */
    public static final Names BENCH = new Names("report.html", "report.json", "junit.xml");
    /** The feature bench's files, beside the parallel bench's. */
    public static final Names FEATURE = new Names("feature-report.html", "feature-report.json", "feature-junit.xml");

    public static final String HTML = BENCH.html();
    public static final String JSON = BENCH.json();
    public static final String JUNIT = BENCH.junit();

    /** The paths written. */
    public record Written(Path html, Path json, Path junit) {
    }

    /** Writes one report of type {@code R} to one file. */
    @FunctionalInterface
    private interface Writer<R> {
        void write(R report, Path file) throws IOException;
    }

    private ReportFiles() {
    }

    /** Creates {@code dir} if needed and writes report.html, report.json and junit.xml into it. */
    public static Written writeAll(BenchReport report, Path dir) throws IOException {
        return writeAll(report, dir, BENCH, HtmlReport::write, JsonReport::write, JunitReport::write);
    }

    /** Creates {@code dir} if needed and writes feature-report.html, feature-report.json and feature-junit.xml. */
    public static Written writeAll(FeatureReport report, Path dir) throws IOException {
        return writeAll(report, dir, FEATURE, FeatureHtmlReport::write, FeatureJsonReport::write,
                FeatureJunitReport::write);
    }

    private static <R> Written writeAll(R report, Path dir, Names names, Writer<R> html, Writer<R> json,
            Writer<R> junit) throws IOException {
        Files.createDirectories(dir);
        Written w = new Written(dir.resolve(names.html()), dir.resolve(names.json()), dir.resolve(names.junit()));
        html.write(report, w.html());
        json.write(report, w.json());
        junit.write(report, w.junit());
        return w;
    }
}
