package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;

import org.junit.jupiter.api.Test;

/**
 * {@code stillwater measure harness}: its command line, and one real tiny open-loop run on the
 * embedded engine through the bench's LoadDriver (every scheduled query is issued and answered
 * right; nothing about speed is asserted).
 */
class HarnessMeasureCommandTest {
    @Test
    void helpDescribesTheFlags() {
        CliRun o = CliRun.of("measure", "harness", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--seconds").contains("--rate").contains("2000").contains("--connections")
                .contains("--rows").contains("100000").contains("--target").contains("--postgres").contains("--part").contains("--rounds");
    }

    @Test
    void measureListsTheHarnessSubcommand() {
        CliRun o = CliRun.of("measure", "--help");
        assertThat(o.out()).contains("harness");
    }

    @Test
    void nonPositiveSizesAreRefused() {
        CliRun o = CliRun.of("measure", "harness", "--rate", "0");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("must be positive");
    }

    @Test
    void aBadTargetIsAUsageError() {
        CliRun o = CliRun.of("measure", "harness", "--target", "nowhere");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--target").contains("unknown target");
    }

    @Test
    void postgresAndTargetAreAlternatives() {
        CliRun o = CliRun.of("measure", "harness", "--postgres", "--target", "url:postgresql://u@127.0.0.1/db");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("alternatives");
    }

    @Test
    void aTinyOpenLoopOnTheEmbeddedEngineIssuesEveryEventAndFailsNone() {
        CliRun o = CliRun.of("measure", "harness", "--part", "open", "--seconds", "0.5", "--warmup-seconds", "0",
                "--rate", "100", "--connections", "2");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("1. Open-loop schedule lateness").doesNotContain("FAILED")
                .doesNotContain("2. Closed-loop");
        // the data row: target, issued (ceil(100/s * 0.5 s) = 50), achieved/s, lateness p99 & max,
        // query p50 & p99, failed (0)
        String row = o.out().lines().filter(l -> l.startsWith("embedded")).findFirst().orElseThrow();
        String[] cells = row.trim().split("\\s+");
        assertThat(cells).hasSize(8);
        assertThat(cells[1]).isEqualTo("50");
        assertThat(cells[7]).isEqualTo("0");
    }

    /** Needs PostgreSQL 15 binaries and pgbench (and, as root, the postgres OS user), like RegressionSuitePostgresTest. */
    @Test
    void aTinyClosedLoopOnAThrowawayPostgresComparesWithPgbenchAndFailsNothing() {
        CliRun o = CliRun.of("measure", "harness", "--part", "closed", "--seconds", "1", "--warmup-seconds", "0",
                "--rounds", "1", "--rows", "1000", "--connections", "2");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("2. Closed-loop point lookups: PostgreSQL 15").contains("1,000 rows")
                .contains("harness / pgbench = ").doesNotContain("FAILED").doesNotContain("not run")
                .doesNotContain("1. Open-loop");
        // every client row: name, round 1, seconds, queries > 0, failed 0, ...
        java.util.List<String> rows = o.out().lines()
                .filter(l -> l.startsWith("harness closed loop") || l.startsWith("plain JDBC") || l.startsWith("pgbench"))
                .toList();
        assertThat(rows).hasSize(4);
        for (String row : rows) {
            String[] cells = row.replaceFirst("^[a-zA-Z ,-]+?\\s{2,}", "").trim().split("\\s+");
            assertThat(cells[0]).as(row).isEqualTo("1");
            assertThat(Long.parseLong(cells[2].replace(",", ""))).as(row).isPositive();
            assertThat(cells[3]).as(row).isEqualTo("0");
        }
    }
}
