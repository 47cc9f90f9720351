package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.Transport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve --transport / --inline-reads}: defaults, parsing, what reaches the server. */
class ServeNetworkOptionsTest {
    @Test
    void defaultsAreEpollWhereItLoadsAndInlineReads(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.server().transport())
                    .isEqualTo(Transport.epollUnavailability() == null ? Transport.EPOLL : Transport.NIO);
            assertThat(running.server().inlineReads()).isTrue();
        }
    }

    @Test
    void flagsReachTheServer(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync",
                "--transport", "NIO", "--inline-reads=false");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.server().transport()).isEqualTo(Transport.NIO);
            assertThat(running.server().inlineReads()).isFalse();
        }
    }

    @Test
    void anUnknownTransportIsAUsageError(@TempDir Path dir) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("serve", "--data-dir", dir.toString(), "--transport", "kqueue")).isEqualTo(2);
        assertThat(err.toString()).contains("--transport").contains("expected auto, nio or epoll, got 'kqueue'");
        assertThat(dir).isEmptyDirectory();
    }
}
