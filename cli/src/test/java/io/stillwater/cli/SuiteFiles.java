package io.stillwater.cli;

import io.stillwater.slt.Corpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the suites live: {@code test/slt} under the repository root (the nearest directory
 * above the working directory whose pom.xml lists modules), and the shared SQLite corpus at
 * {@code ../shared/corpus/sqlite} beside the checkout or under {@code $STILLWATER_SHARED}.
 *
 * <p>Naming convention of {@code test/slt}: a file ending in {@code .stillwater.slt} tests
 * behaviour that is Stillwater's own and runs only against the embedded engine; every other
 * {@code *.slt} file is portable and must pass unchanged on PostgreSQL 15 as well.
 */
final class SuiteFiles {
    static final String STILLWATER_ONLY_SUFFIX = ".stillwater.slt";

    private SuiteFiles() {}

    static Path repoRoot() { return Corpus.repoRoot(); }

    static Path regressionDir() {
        return repoRoot().resolve("test/slt");
    }

    /** Every regression file, sorted by name. */
    static List<Path> allRegressionFiles() {
        try (Stream<Path> files = Files.list(regressionDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".slt")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The regression files that must also pass on PostgreSQL: all but {@code *.stillwater.slt}. */
    static List<Path> portableRegressionFiles() {
        return allRegressionFiles().stream()
                .filter(p -> !p.getFileName().toString().endsWith(STILLWATER_ONLY_SUFFIX))
                .toList();
    }

    static Path sqliteCorpus() { return Corpus.sqlite(); }
}
