package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code stillwater measure memory}: its command line, the JOL breakdown of an arrangement batch,
 * and one tiny real run on the embedded engine and a throwaway PostgreSQL (every row arrives on
 * both; sizes are only checked to be there and positive, never compared).
 */
class MemoryMeasureCommandTest {
    @Test
    void helpDescribesTheFlagsAndMeasureListsIt() {
        CliRun o = CliRun.of("measure", "memory", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--rows").contains("1000000").contains("--chunk").contains("--layout-rows");
        assertThat(CliRun.of("measure", "--help").out()).contains("memory");
    }

    @Test
    void nonPositiveSizesAreRefused() {
        CliRun o = CliRun.of("measure", "memory", "--rows", "0");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("must be positive");
    }

    /**
     * One batch of n two-int rows, each once at one time: packed into two int columns, the
     * empty values, offsets, times and diffs stored as nothing; no object per row or datum, and
     * the shares add up.
     */
    @Test
    void theLayoutAccountsForEveryObjectOfTheBatch() {
        RowFootprint f = RowFootprint.of(1000);
        Map<String, RowFootprint.ClassShare> byClass = f.perClass().stream()
                .collect(Collectors.toMap(RowFootprint.ClassShare::className, s -> s));
        assertThat(byClass).containsKeys("Batch", "PrimitiveRows", "EmptyRows", "int[]")
                .doesNotContainKeys("Row", "Object[]", "Integer", "Row[]", "long[]");
        assertThat(byClass.get("int[]").count()).as("the two key columns").isEqualTo(2);
        assertThat(byClass.get("int[]").bytes()).isBetween(2 * 4000L, 2 * 4000L + 64);
        assertThat(f.totalBytes()).isLessThan(9 * 1000L);
        assertThat(f.perClass().stream().mapToLong(RowFootprint.ClassShare::bytes).sum()).isEqualTo(f.totalBytes());
        assertThat(f.perClass()).isSortedAccordingTo((a, b) -> Long.compare(b.bytes(), a.bytes()));
    }

    /** Needs PostgreSQL 15 binaries (and, as root, the postgres OS user), like RegressionSuitePostgresTest. */
    @Test
    void aTinyRunMeasuresBothSidesAndTheLayout() {
        CliRun o = CliRun.of("measure", "memory", "--rows", "2000", "--chunk", "500", "--layout-rows", "100");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("1. Stillwater").contains("after 2,000 rows")
                .contains("2. PostgreSQL 15").contains("3. One arrangement batch of 100 rows")
                .contains("Live heap growth by class")
                .doesNotContain("FAILED").doesNotContain("not run");
        List<String> summary = o.out().lines()
                .filter(l -> l.startsWith("Stillwater live heap") || l.startsWith("PostgreSQL 15 pg_total")).toList();
        assertThat(summary).hasSize(2);
        for (String row : summary) {
            String[] cells = row.replaceFirst("^.*?\\)\\s+", "").trim().split("\\s+");
            assertThat(Double.parseDouble(cells[0])).as(row).isPositive(); // bytes/row
            assertThat(Double.parseDouble(cells[2])).as(row).isPositive(); // ratio to PostgreSQL
        }
    }
}
