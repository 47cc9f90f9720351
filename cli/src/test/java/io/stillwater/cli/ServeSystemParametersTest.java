package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.params.Params;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve --system-parameter-default}: parsing, validation, and the defaults reaching the engine. */
class ServeSystemParametersTest {
    private record Outcome(int exitCode, String err) {}

    private static Outcome run(String... args) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        return new Outcome(cli.execute(args), err.toString());
    }

    @Test
    void defaultsReachTheEngineAndLaterOnesWin(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync",
                "--system-parameter-default", "enable_compute_interactive_runtime=off;max_connections=5",
                "--system-parameter-default", "max_connections=7; statement_timeout='10s'");
        try (ServeCommand.Running running = serve.start()) {
            var params = running.engine().systemParameters();
            assertThat(params.get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)).isFalse();
            assertThat(params.get(Params.MAX_CONNECTIONS)).isEqualTo(7);
            assertThat(params.get(Params.STATEMENT_TIMEOUT)).isEqualTo(Duration.ofSeconds(10));
            assertThat(params.get(Params.MAX_RESULT_SIZE)).isEqualTo(1L << 30);
        }
    }

    @Test
    void anInvalidValueIsAUsageErrorBeforeListening(@TempDir Path dir) {
        Outcome o = run("serve", "--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--system-parameter-default", "max_result_size=lots");
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("--system-parameter-default")
                .contains("invalid value for parameter \"max_result_size\": \"lots\"")
                .contains("\"lots\" is not a byte size");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void anUnknownNameOrAMissingEqualsIsAUsageError(@TempDir Path dir) {
        Outcome unknown = run("serve", "--data-dir", dir.toString(), "--system-parameter-default", "max_conections=5");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("unrecognized configuration parameter \"max_conections\"");
        Outcome noEquals = run("serve", "--data-dir", dir.toString(), "--system-parameter-default", "max_connections");
        assertThat(noEquals.exitCode()).isEqualTo(2);
        assertThat(noEquals.err()).contains("invalid system parameter default \"max_connections\"");
    }

    @Test
    void helpDescribesTheFlag() {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute("serve", "--help")).isZero();
        assertThat(out.toString()).contains("--system-parameter-default").contains("ALTER SYSTEM");
    }
}
