package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code stillwater measure ingest}: its command line, and one tiny real run of both modes on
 * the embedded engine (every acknowledged row is in the table and the view; nothing about
 * speed is asserted).
 */
class IngestMeasureCommandTest {
    @Test
    void helpDescribesTheFlags() {
        CliRun o = CliRun.of("measure", "ingest", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--seconds").contains("60").contains("--rate-factor").contains("--max-maintenance-lag")
                .contains("--modes").contains("--calibration-seconds").contains("--connections").contains("--big-rows");
        assertThat(CliRun.of("measure", "--help").out()).contains("ingest");
    }

    @Test
    void badOptionsAreUsageErrors() {
        CliRun zero = CliRun.of("measure", "ingest", "--seconds", "0");
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("must be positive");
        CliRun mode = CliRun.of("measure", "ingest", "--modes", "sideways");
        assertThat(mode.exitCode()).isEqualTo(2);
        assertThat(mode.err()).contains("--modes takes on and off");
    }

    @Test
    void aTinyRunOfBothModesLosesNothing() {
        CliRun o = CliRun.of("measure", "ingest", "--seconds", "2", "--warmup-seconds", "0.5", "--calibration-seconds", "1",
                "--big-rows", "500", "--connections", "2", "--batch-rows", "5", "--sample-interval-ms", "100",
                "--report-interval-seconds", "1", "--max-maintenance-lag", "500ms", "--no-fsync");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("maintenance sustained").contains("over time, backpressure on (max_maintenance_lag = 500ms)")
                .contains("over time, backpressure off (max_maintenance_lag = 0)").contains("summary:");
        String summary = o.out().substring(o.out().indexOf("summary:"));
        assertThat(summary.lines().filter(l -> l.startsWith("on (500ms)") || l.startsWith("off")))
                .hasSize(2).allSatisfy(l -> assertThat(l).contains(" yes ").doesNotContain(" NO "));
    }
}
