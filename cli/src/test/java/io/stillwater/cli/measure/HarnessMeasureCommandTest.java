package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.cli.StillwaterCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code stillwater measure harness}: its command line, and one real tiny open-loop run on the
 * embedded engine through the bench's LoadDriver (every scheduled query is issued and answered
 * right; nothing about speed is asserted).
 */
class HarnessMeasureCommandTest {
    private record Outcome(int exitCode, String out, String err) {}

    private static Outcome run(String... args) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void helpDescribesTheFlags() {
        Outcome o = run("measure", "harness", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--seconds").contains("--rate").contains("2000").contains("--connections")
                .contains("--rows").contains("100000").contains("--target").contains("--postgres").contains("--part").contains("--rounds");
    }

    @Test
    void measureListsTheHarnessSubcommand() {
        Outcome o = run("measure", "--help");
        assertThat(o.out()).contains("harness");
    }

    @Test
    void nonPositiveSizesAreRefused() {
        Outcome o = run("measure", "harness", "--rate", "0");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("must be positive");
    }

    @Test
    void aBadTargetIsAUsageError() {
        Outcome o = run("measure", "harness", "--target", "nowhere");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--target").contains("unknown target");
    }

    @Test
    void postgresAndTargetAreAlternatives() {
        Outcome o = run("measure", "harness", "--postgres", "--target", "url:postgresql://u@127.0.0.1/db");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("alternatives");
    }

    @Test
    void aTinyOpenLoopOnTheEmbeddedEngineIssuesEveryEventAndFailsNone() {
        Outcome o = run("measure", "harness", "--part", "open", "--seconds", "0.5", "--warmup-seconds", "0",
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
}
