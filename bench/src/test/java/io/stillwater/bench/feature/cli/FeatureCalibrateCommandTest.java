package io.stillwater.bench.feature.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code feature-bench --calibrate}: its usage errors (exit 2, naming the problem) and its help. */
class FeatureCalibrateCommandTest {
    public static final class Plain extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        CommandLine cli = new CommandLine(new FeatureBenchCommand(() -> List.of(Plain.class)));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void calibrateNeedsAtLeastTwoRunsPerScenario() {
        Run r = run("--calibrate", "--runs-per-scenario", "1");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--calibrate needs --runs-per-scenario of at least 2");
    }

    @Test
    void calibrateExcludesAnOtherSide() {
        Run other = run("--calibrate", "--other", "jar:/nope.jar");
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.err()).contains("--calibrate runs this side against itself");
        Run params = run("--calibrate", "--other-params", "");
        assertThat(params.exitCode()).isEqualTo(2);
        assertThat(params.err()).contains("drop --other and --other-params");
    }

    @Test
    void helpExplainsCalibrateAndTheFlag() {
        Run r = run("--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--calibrate").contains("SPREAD column").contains("twice that spread");
    }
}
