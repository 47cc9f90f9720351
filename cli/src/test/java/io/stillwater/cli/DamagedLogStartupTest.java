package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.targets.ServeProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code stillwater serve} on a log damaged in its middle: it refuses to start with
 * exit status 65 and one ERROR line naming the file, the offset and the way out, with no
 * stack trace; then {@code --recover-truncate-at} with the value that line names starts
 * it, the cut bytes are kept in {@code recovered-<time>/}, and the lost records are
 * counted.
 */
class DamagedLogStartupTest {
    private static final int ROWS = 40;

    @TempDir
    Path dataDir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // hang guard
    void aDamagedLogIsRefusedWithOneErrorLineThenCutOnPurpose() throws Exception {
        // Checkpoints off: the damage must hit the log, which a shutdown checkpoint would replace.
        List<String> noCheckpoints = List.of("--system-parameter-default", "checkpoint_interval=0;checkpoint_wal_size=0");
        try (ServeProcess s = ThisBuildServe.startWithServeOptions(dataDir, noCheckpoints); Connection c = s.connect();
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (x int)");
            for (int i = 1; i <= ROWS; i++) st.execute("INSERT INTO t VALUES (" + i + ")");
        }
        // Damage the record of row ROWS - 9: ten records from the end, nine intact ones after it.
        Path segment = dataDir.resolve("wal-00000000000000000001.log");
        List<Long> frames = frameStarts(segment);
        long damaged = frames.get(frames.size() - 10);
        long size = Files.size(segment);
        flip(segment, damaged + 8 + 3);

        Refused refused = serveExpectingFailure(dataDir, List.of());
        assertThat(refused.exitCode()).isEqualTo(ServeCommand.EXIT_DAMAGED_LOG);
        List<String> errors = refused.lines().stream().filter(l -> l.contains("ERROR")).toList();
        assertThat(errors).as("one ERROR line; output: %s", refused.lines()).hasSize(1);
        String cutAt = segment.getFileName() + ":" + damaged;
        assertThat(errors.get(0)).contains(segment.toString(), "byte offset " + damaged, "CRC32C",
                "--recover-truncate-at=" + cutAt);
        assertThat(refused.lines()).as("no stack trace").noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception"));

        ServeProcess.Command withCut = ServeProcess.Command.classPath(StillwaterCli.class.getName(), List.of())
                .withServeOptions(List.of("--listen", "127.0.0.1", "--recover-truncate-at=" + cutAt));
        try (ServeProcess s = ServeProcess.start(withCut, dataDir, Duration.ofSeconds(120));
             Connection c = s.connect(); Statement st = c.createStatement()) {
            assertThat(query(st, "SELECT count(*) FROM t")).isEqualTo(ROWS - 10);
            assertThat(query(st, "SELECT max(x) FROM t")).isEqualTo(ROWS - 10);
            assertThat(String.join("\n", s.output())).contains("9 intact record(s)");
            st.execute("INSERT INTO t VALUES (1000)");
        }
        List<Path> recovered;
        try (Stream<Path> files = Files.list(dataDir)) {
            recovered = files.filter(p -> p.getFileName().toString().startsWith("recovered-")).toList();
        }
        assertThat(recovered).hasSize(1);
        assertThat(Files.size(recovered.get(0).resolve(segment.getFileName() + ".from-" + damaged)))
                .isEqualTo(size - damaged);
        assertThat(recovered.get(0).resolve("README.txt")).exists();

        // Later starts need no flag: the log is whole again. A flag left on the command line
        // cuts nothing more: the undamaged log is refused the cut.
        Refused again = serveExpectingFailure(dataDir, List.of("--recover-truncate-at=" + cutAt));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.lines()).anyMatch(l -> l.contains("ERROR") && l.contains("not damaged"));
        try (ServeProcess s = ThisBuildServe.start(dataDir); Connection c = s.connect(); Statement st = c.createStatement()) {
            assertThat(query(st, "SELECT count(*) FROM t")).isEqualTo(ROWS - 9);
        }
    }

    private record Refused(int exitCode, List<String> lines) {}

    private static Refused serveExpectingFailure(Path dataDir, List<String> options) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StillwaterCli.class.getName(),
                "serve", "--port", "0", "--listen", "127.0.0.1", "--data-dir", dataDir.toString()));
        cmd.addAll(options);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8); // ends when the process does
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("serve exits; output: %s", out).isTrue();
        return new Refused(p.exitValue(), out.lines().toList());
    }

    /** Where the frames of a segment start: a 16-byte header, then [int length][int crc][payload]. */
    private static List<Long> frameStarts(Path segment) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment));
        List<Long> starts = new ArrayList<>();
        for (int pos = 16; pos + 8 <= b.limit(); pos += 8 + b.getInt(pos)) starts.add((long) pos);
        return starts;
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x20));
            ch.write(one.flip(), offset);
        }
    }

    private static long query(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
