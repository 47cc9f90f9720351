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
     * One batch of n two-int rows: n rows plus the shared empty value row, one value array per
     * row, two boxed ints per row (but the JVM's cached small ones, shared), and the shares add up.
     */
    @Test
    void theLayoutAccountsForEveryObjectOfTheBatch() {
        RowFootprint f = RowFootprint.of(1000);
        Map<String, RowFootprint.ClassShare> byClass = f.perClass().stream()
                .collect(Collectors.toMap(RowFootprint.ClassShare::className, s -> s));
        assertThat(byClass).containsKeys("Row", "Object[]", "Integer", "Row[]", "int[]", "long[]", "Batch");
        assertThat(byClass.get("Row").count()).isEqualTo(1001);
        assertThat(byClass.get("Object[]").count()).isEqualTo(1001);
        // rows (g, g + 1): 2000 boxes, but Integer.valueOf shares one object per value up to 127
        // (the values 1..127 of a and 2..127 of b: 127 objects instead of 253)
        assertThat(byClass.get("Integer").count()).isEqualTo(2000 - 253 + 127);
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
