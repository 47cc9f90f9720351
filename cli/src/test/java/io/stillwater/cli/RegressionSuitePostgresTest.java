package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.slt.FileResult;
import io.stillwater.slt.Outcome;
import io.stillwater.slt.PostgresCluster;
import io.stillwater.slt.RunSummary;
import io.stillwater.slt.SltOptions;
import io.stillwater.slt.SltRunner;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keeps the portable regression files honest: every {@code test/slt/*.slt} file that is not
 * {@code *.stillwater.slt} must pass unchanged on a real PostgreSQL 15, so its expected
 * results are PostgreSQL's behaviour and not merely Stillwater's.
 */
class RegressionSuitePostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    @Test
    void portableRegressionFilesPassOnPostgres() {
        List<Path> files = SuiteFiles.portableRegressionFiles();
        assertThat(files).as("portable regression files").hasSizeGreaterThanOrEqualTo(10)
                .noneMatch(p -> p.getFileName().toString().endsWith(SuiteFiles.STILLWATER_ONLY_SUFFIX));

        RunSummary summary = new SltRunner(SltOptions.of(files).withUrl(PG.url()).withUnsupportedIsFailure(true),
                System.out).run();
        System.out.println("regression suite (PostgreSQL): " + summary.countsLine());

        assertThat(summary.files()).hasSize(files.size());
        for (FileResult f : summary.files()) {
            assertThat(f.fatal()).as("%s could not run", f.file()).isEmpty();
            assertThat(f.failures(true)).as("%s: %s; problems: %s", f.file(), f.countsLine(), f.problems()).isZero();
        }
        assertThat(summary.total(Outcome.SUCCESS)).isPositive();
        assertThat(summary.passed()).isTrue();
    }
}
