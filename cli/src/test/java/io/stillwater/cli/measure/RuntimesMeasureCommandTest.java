package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;

import org.junit.jupiter.api.Test;

/**
 * {@code stillwater measure runtimes}: its command line and one real run on tiny sizes
 * (every part completes and every lookup and strict read is right; nothing about speed is
 * asserted).
 */
class RuntimesMeasureCommandTest {
    @Test
    void helpDescribesTheFlags() {
        CliRun o = CliRun.of("measure", "runtimes", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--mode").contains("--rows").contains("500000").contains("--walks-per-second")
                .contains("--seconds").contains("--workers").contains("--ticks-per-second");
    }

    @Test
    void anUnknownModeIsAUsageError() {
        CliRun o = CliRun.of("measure", "runtimes", "--mode", "sometimes");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--mode");
    }

    @Test
    void nonPositiveSizesAreRefused() {
        CliRun o = CliRun.of("measure", "runtimes", "--rows", "0");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("must be positive");
    }

    @Test
    void aTinyRunOfBothLayoutsPrintsEveryTableWithRightAnswers() {
        CliRun o = CliRun.of("measure", "runtimes", "--mode", "both", "--rows", "3000", "--seconds", "0.5",
                "--warmup-seconds", "0", "--walks-per-second", "20", "--no-fsync");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("(a) point lookup latency").contains("(b) strict serializable read latency")
                .contains("(c) introspection read latency").contains("solo").contains("maintenance + interactive")
                .doesNotContain("FAILED");
        // Columns 6 and 7 are "wrong"/"stale" and "failed" in tables (a) and (b): 0 on every layout row.
        String out = o.out();
        String tablesAb = out.substring(out.indexOf("(a) point lookup latency"), out.indexOf("(c) introspection read latency"));
        long checked = 0;
        for (String line : tablesAb.lines().toList()) {
            if (line.startsWith("solo ") || line.startsWith("maintenance + interactive ")) {
                String[] cells = line.trim().split("\\s{2,}");
                assertThat(cells[5]).as("wrong/stale in: %s", line).isEqualTo("0");
                assertThat(cells[6]).as("failed in: %s", line).isEqualTo("0");
                checked++;
            }
        }
        assertThat(checked).isEqualTo(4);
    }
}
