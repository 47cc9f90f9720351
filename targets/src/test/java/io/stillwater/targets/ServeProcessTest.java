package io.stillwater.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one serve launcher, driven against {@link FakeServe} in a real child JVM. */
class ServeProcessTest {
    private static final Duration START = Duration.ofSeconds(60);
    private static final ServeProcess.Command FAKE = ServeProcess.Command.classPath(FakeServe.class.getName(), List.of("-Xmx64m"));

    @Test
    void startsOnTheLoggedPortRestartsOnTheSameDataAndStopsWithSigterm(@TempDir Path dir) throws Exception {
        try (ServeProcess s = ServeProcess.start(FAKE, dir, START)) {
            assertThat(s.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + s.port() + "/materialize");
            assertThat(s.user()).isEqualTo("materialize");
            assertThat(s.restartable()).isTrue();
            assertThat(s.output()).contains("start number 1", "listening on 127.0.0.1:" + s.port());
            assertAccepts(s.port());
            long firstPid = s.processId().orElseThrow();

            s.restart();

            assertThat(s.output()).as("the new child's output, on the same data directory").contains("start number 2");
            assertThat(s.processId().orElseThrow()).isNotEqualTo(firstPid);
            assertAccepts(s.port());

            s.stop();
            assertThat(s.exitCode()).as("SIGTERM: 128 + 15").hasValue(143);
        }
        assertThat(Files.exists(dir.resolve("starts"))).as("a caller's data directory survives close").isTrue();
    }

    @Test
    void killIsACrash(@TempDir Path dir) throws Exception {
        try (ServeProcess s = ServeProcess.start(FAKE, dir, START)) {
            s.kill();
            assertThat(s.exitCode()).as("SIGKILL: 128 + 9").hasValue(137);
        }
    }

    @Test
    void aChildThatExitsBeforeListeningFailsWithItsStatusAndOutput(@TempDir Path dir) {
        ServeProcess.Command failing = FAKE.withServeOptions(List.of("--fail-before-listening"));
        assertThatThrownBy(() -> ServeProcess.start(failing, dir, START))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serve exited with status 3 before listening")
                .hasMessageContaining("start number 1 | cannot open the data directory");
    }

    @Test
    void aTemporaryDataDirectoryIsDeletedByClose() throws Exception {
        Path dir;
        try (ServeProcess s = ServeProcess.startInTempDirectory(FAKE, START)) {
            dir = s.dataDir();
            assertThat(dir.resolve("starts")).exists();
        }
        assertThat(dir).doesNotExist();
    }

    private static void assertAccepts(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            assertThat(socket.isConnected()).isTrue();
        }
    }
}
