package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PgbenchResultTest {

    @Test
    void parsesPgbench15Summary() {
        String out = """
                pgbench (15.18 (Debian 15.18-0+deb12u1))
                transaction type: lookup.sql
                scaling factor: 1
                query mode: prepared
                number of clients: 4
                number of threads: 4
                maximum number of tries: 1
                duration: 10 s
                number of transactions actually processed: 388880
                number of failed transactions: 3 (0.001%)
                latency average = 0.102 ms
                initial connection time = 5.921 ms
                tps = 38888.123456 (without initial connection time)
                """;
        assertThat(PgbenchResult.parse(out)).isEqualTo(new PgbenchResult(38888.123456, 388880, 3));
    }

    @Test
    void olderPgbenchTakesTheTpsExcludingConnections() {
        String out = """
                number of transactions actually processed: 1000
                tps = 90.5 (including connections establishing)
                tps = 100.25 (excluding connections establishing)
                """;
        assertThat(PgbenchResult.parse(out)).isEqualTo(new PgbenchResult(100.25, 1000, 0));
    }

    @Test
    void outputWithoutTpsIsAnErrorCarryingTheOutput() {
        assertThatThrownBy(() -> PgbenchResult.parse("pgbench: error: connection refused\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tps = ")
                .hasMessageContaining("connection refused");
    }

    @Test
    void ratioIsNaNWithoutADenominator() {
        assertThat(HarnessMeasureCommand.ratio(50, 200)).isEqualTo(0.25);
        assertThat(HarnessMeasureCommand.ratio(50, 0)).isNaN();
    }
}
