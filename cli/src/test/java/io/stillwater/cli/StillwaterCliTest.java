package io.stillwater.cli;

import org.assertj.core.api.Assertions;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class StillwaterCliTest {
    @Test
    void helpListsTheServeCommand() {
        CliRun o = CliRun.of("--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("Usage: stillwater").contains("serve").contains("--version");
    }

    @Test
    void serveHelpDescribesEveryOption() {
        CliRun o = CliRun.of("serve", "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).contains("--listen=HOST").contains("127.0.0.1")
                .contains("--port=PORT").contains("6875")
                .contains("--data-dir=DIR").contains("./data")
                .contains("--no-fsync").contains("TESTS ONLY")
                .contains("--workers=N");
    }

    @Test
    void serveWorkersSizeTheEngineAndAreValidated(@TempDir Path dir) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString(), "--no-fsync",
                "--workers", "2");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.engine().config().workers()).isEqualTo(2);
        }
        ServeCommand zero = new ServeCommand();
        new CommandLine(zero).parseArgs("--port", "0", "--data-dir", dir.resolve("data0").toString(), "--workers", "0");
        Assertions.assertThatThrownBy(zero::start)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--workers must be between 1 and 64");
    }

    @Test
    void versionIsPrinted() {
        CliRun o = CliRun.of("--version");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).startsWith("stillwater " + StillwaterCli.VERSION);
    }

    @Test
    void noCommandIsAUsageError() {
        CliRun o = CliRun.of();
        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("Missing command").contains("serve");
    }

    @Test
    void serveStartsAServerThatSpeaksThePostgresProtocol(@TempDir Path dir) throws Exception {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString(), "--no-fsync");
        try (ServeCommand.Running running = serve.start();
             Socket s = new Socket("127.0.0.1", running.port())) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(8);
            out.writeInt(80877103); // SSLRequest
            out.flush();
            assertThat(new DataInputStream(s.getInputStream()).read()).isEqualTo('N');
        }
    }
}
