package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.slt.FileResult;
import io.stillwater.slt.RunSummary;
import io.stillwater.slt.SltOptions;
import io.stillwater.slt.SltRunner;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the project's own sqllogictest files ({@code test/slt}, portable and
 * {@code *.stillwater.slt} alike) against a fresh embedded engine per file, through the public
 * runner API: every record must succeed. Unsupported records count as failures here: the
 * suite only states what the engine does support (unsupported features are tested as
 * {@code statement error pgcode 0A000}).
 */
class RegressionSuiteTest {

    @Test
    void everyRegressionFilePassesOnTheEmbeddedEngine() {
        List<Path> files = SuiteFiles.allRegressionFiles();
        assertThat(files).as("regression files in %s", SuiteFiles.regressionDir()).hasSizeGreaterThanOrEqualTo(12);

        RunSummary summary = new SltRunner(SltOptions.of(files).withUnsupportedIsFailure(true), System.out).run();
        System.out.println("regression suite (embedded): " + summary.countsLine());

        assertThat(summary.files()).hasSize(files.size());
        for (FileResult f : summary.files()) {
            assertThat(f.fatal()).as("%s could not run", f.file()).isEmpty();
            assertThat(f.failures(true)).as("%s: %s; problems: %s", f.file(), f.countsLine(), f.problems()).isZero();
            assertThat(f.total()).as("%s ran no records", f.file()).isPositive();
        }
        assertThat(summary.passed()).isTrue();
    }
}
