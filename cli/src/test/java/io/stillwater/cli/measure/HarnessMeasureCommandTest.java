package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.scenarios.FeatureCatalog;
import io.stillwater.bench.scenarios.Suite;
import io.stillwater.cli.CliRun;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("harness");
    }

    /**
     * The former engine measurements are bench scenarios: the help names each, every name it gives
     * is a scenario of this build, and the old subcommands are usage errors.
     */
    @Test
    void theFormerSubcommandsPointToScenariosThatExist() {
        CliRun o = CliRun.of("measure", "--help");
        assertThat(o.out()).contains("measure views (b, c)         bench --scenario JoinGroupByIngest")
                .contains("measure ingest               bench --scenario IngestOverload")
                .contains("--other-params max_maintenance_lag=0")
                .contains("measure runtimes             bench (interactive suite, other = runtime off)");
        assertThat(o.out().lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        Set<String> known = new HashSet<>();
        Suite.all().forEach(s -> known.add(s.name()));
        FeatureCatalog.all().forEach(c -> known.add(c.getSimpleName()));
        Matcher named = Pattern.compile("--scenario (\\w+)|([A-Z][a-z]+(?:[A-Z][a-z]+){2,})").matcher(o.out());
        Set<String> mentioned = new HashSet<>();
        while (named.find()) {
            mentioned.add(named.group(1) != null ? named.group(1) : named.group(2));
        }
        assertThat(mentioned).contains("JoinGroupByIngest", "IngestOverload", "HydrateIndex", "FastPathFilterIndex",
                "PeekIsolationUnderExpensivePeeks", "FreshnessUnderPeekWalks", "IntrospectionUnderHydration");
        assertThat(known).containsAll(mentioned);
        for (String gone : List.of("views", "runtimes", "ingest")) {
            CliRun old = CliRun.of("measure", gone);
            assertThat(old.exitCode()).as(gone).isEqualTo(2);
            assertThat(old.err()).as(gone).contains("Unmatched argument");
        }
        CliRun none = CliRun.of("measure");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("Missing measurement: choose one of harness");
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
        List<String> rows = o.out().lines()
                .filter(l -> l.startsWith("harness") || l.startsWith("plain JDBC") || l.startsWith("pgbench"))
                .toList();
        // the harness on platform threads (the default), on virtual threads, plain JDBC both ways, pgbench
        assertThat(rows).hasSize(5);
        for (String row : rows) {
            String[] cells = row.replaceFirst("^[a-zA-Z ,-]+?\\s{2,}", "").trim().split("\\s+");
            assertThat(cells[0]).as(row).isEqualTo("1");
            assertThat(Long.parseLong(cells[2].replace(",", ""))).as(row).isPositive();
            assertThat(cells[3]).as(row).isEqualTo("0");
        }
    }
}
