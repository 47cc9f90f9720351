package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.CliRun;

import org.junit.jupiter.api.Test;
import org.postgresql.util.PGInterval;

/**
 * {@code stillwater measure views}: its command line, the lag parsing it relies on, and one
 * real run on tiny sizes (every part must complete with right answers; nothing about speed
 * is asserted).
 */
class ViewsMeasureCommandTest {
    @Test
    void helpDescribesTheFlags() {
        CliRun o = CliRun.of("measure", "views", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--workers").contains("--lookup-rows").contains("100000")
                .contains("--connections").contains("--batch-rows").contains("--throughput-seconds")
                .contains("--freshness-seconds").contains("--hydration-rows").contains("1000000").contains("--parts");
    }

    @Test
    void measureWithoutAMeasurementIsAUsageError() {
        CliRun o = CliRun.of("measure");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("Missing measurement").contains("views");
    }

    @Test
    void anUnknownPartIsAUsageError() {
        CliRun o = CliRun.of("measure", "views", "--parts", "lookup,nope");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--parts");
    }

    @Test
    void nonPositiveSizesAreRefused() {
        CliRun o = CliRun.of("measure", "views", "--workers", "0");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("must be positive");
    }

    @Test
    void lagIsReadFromAnIntervalOrMilliseconds() throws Exception {
        assertThat(Freshness.lagMicros(new PGInterval("00:00:00.25"))).isEqualTo(250_000);
        assertThat(Freshness.lagMicros(new PGInterval("1 day 00:00:01"))).isEqualTo(86_401_000_000L);
        assertThat(Freshness.lagMicros(250L)).isEqualTo(250_000);
        assertThat(Freshness.lagMicros(1.5)).isEqualTo(1_500);
        assertThat(Freshness.lagMicros("12")).isEqualTo(12_000);
    }

    @Test
    void everyPartRunsOnTinySizesWithRightAnswers() {
        CliRun o = CliRun.of("measure", "views", "--workers", "2", "--no-fsync",
                "--lookup-rows", "2000", "--lookup-seconds", "0.3", "--warmup-seconds", "0.1",
                "--connections", "2", "--batch-rows", "20", "--throughput-seconds", "2",
                "--freshness-seconds", "2", "--sample-interval-ms", "20", "--hydration-rows", "5000");
        assertThat(o.out()).doesNotContain("FAILED");
        assertThat(o.exitCode()).as(o.out()).isZero();
        assertThat(o.out()).contains("(a) point lookup latency").contains("default index (all columns)")
                .contains("index on id").contains("no index")
                .contains("(b) insert throughput").contains("(c) freshness").contains("ack -> visible")
                .contains("(d) index hydration").contains("first successful lookup");
    }
}
