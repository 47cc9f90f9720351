package io.stillwater.cli;

import io.stillwater.pgwire.PgServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve --max-message-size / --max-buffered-input / --max-starting-connections}: defaults, parsing, validation. */
class ServeLimitsTest {
    @Test
    void defaultsAreSixteenMegabyteMessagesAndTheirBudget(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.server().limits().maxMessageSize()).isEqualTo(16 << 20);
            assertThat(running.server().limits().maxBufferedInput()).isEqualTo(256L << 20);
            assertThat(running.server().limits().maxStartingConnections()).isEqualTo(256);
        }
    }

    @Test
    void flagsReachTheServer(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync",
                "--max-message-size", "1MB", "--max-buffered-input", "64MB", "--max-starting-connections", "10");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.server().limits()).isEqualTo(new PgServer.Limits(1 << 20, 64L << 20, 10));
        }
    }

    @Test
    void badValuesAreUsageErrorsAndInconsistentOnesAreRefusedBeforeListening(@TempDir Path dir) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("serve", "--data-dir", dir.resolve("a").toString(), "--max-message-size", "huge")).isEqualTo(2);
        assertThat(err.toString()).contains("--max-message-size").contains("\"huge\" is not a byte size");

        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("b").toString(),
                "--max-message-size", "32MB", "--max-buffered-input", "16MB");
        assertThatThrownBy(serve::start).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--max-buffered-input").hasMessageContaining("--max-message-size");
        assertThat(dir.resolve("b")).doesNotExist();
    }

    @Test
    void helpDescribesTheLimits() {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute("serve", "--help")).isZero();
        assertThat(out.toString()).contains("--max-message-size=SIZE").contains("16MB")
                .contains("--max-buffered-input=SIZE").contains("256MB")
                .contains("--max-starting-connections=N").contains("superuser_reserved_connections");
    }
}
