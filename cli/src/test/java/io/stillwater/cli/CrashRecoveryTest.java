package io.stillwater.cli;

import java.util.Comparator;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.targets.ServeProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills {@code stillwater serve} with SIGKILL in the middle of a stream of inserts and
 * checks, after a restart, that every acknowledged row is there and no row that was
 * never sent is. Repeated on the same data directory, so recovery of a recovered log is
 * exercised too. Iterations: {@code -Dstillwater.crash.iterations=N} (default 5).
 */
class CrashRecoveryTest {
    static final int WRITERS = 4;

    @TempDir
    Path dataDir;

    /** Serve options of the rounds that kill during checkpoints: one every 32 kB of log, so several per round. */
    static final List<String> CONSTANT_CHECKPOINTS =
            List.of("--system-parameter-default=checkpoint_wal_size=32kB;checkpoint_interval=0");

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // hang guard: ~1.5 min on 2 idle cores, ~3 beside a build
    void acknowledgedInsertsSurviveSigkill() throws Exception {
        killRounds(List.of());
    }

    /**
     * The same rounds while checkpoints run all the time: a kill lands before, during and
     * after checkpoint writes, renames and segment deletions. Still 0 lost, 0 phantoms.
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void acknowledgedInsertsSurviveSigkillDuringCheckpoints() throws Exception {
        killRounds(CONSTANT_CHECKPOINTS);
        try (Stream<Path> files = Files.list(dataDir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertThat(names).as("checkpoints ran and the log before them is gone")
                    .anyMatch(n -> n.matches("checkpoint-\\d{20}\\.ckpt"))
                    .doesNotContain("wal-00000000000000000001.log");
        }
    }

    private void killRounds(List<String> serveOptions) throws Exception {
        int iterations = Integer.getInteger("stillwater.crash.iterations", 5);
        Set<Long> sent = ConcurrentHashMap.newKeySet();
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        AtomicLong nextId = new AtomicLong();
        Random random = new Random(42);

        try (ServeProcess s = ThisBuildServe.startWithServeOptions(dataDir, serveOptions); Connection c = s.connect();
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE crash (id bigint NOT NULL, writer int, pad text)");
        }
        for (int iter = 0; iter < iterations; iter++) {
            ServeProcess server = ThisBuildServe.startWithServeOptions(dataDir, serveOptions);
            int killAfter = 100 + random.nextInt(900);
            CountDownLatch enough = new CountDownLatch(killAfter);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                pool.submit(() -> {
                    try (Connection c = server.connect();
                         PreparedStatement ps = c.prepareStatement("INSERT INTO crash VALUES (?, ?, ?)")) {
                        while (true) {
                            long id = nextId.incrementAndGet();
                            sent.add(id);
                            ps.setLong(1, id);
                            ps.setInt(2, writer);
                            ps.setString(3, "row " + id);
                            ps.executeUpdate();
                            acked.add(id); // acknowledged: must survive
                            enough.countDown();
                        }
                    } catch (SQLException expected) {
                        // the server was killed under us
                    }
                    return null;
                });
            }
            assertThat(enough.await(120, TimeUnit.SECONDS)).as("inserts made progress").isTrue();
            server.kill();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

            try (ServeProcess restarted = ThisBuildServe.startWithServeOptions(dataDir, serveOptions)) {
                Map<Long, Integer> present = ids(restarted);
                assertThat(present.values()).as("no row appears twice").allMatch(n -> n == 1);
                assertThat(present.keySet()).as("every acknowledged row survived").containsAll(acked);
                assertThat(sent).as("no row that was never sent").containsAll(present.keySet());
            }
        }
        assertThat(acked.size()).isGreaterThanOrEqualTo(100 * iterations);
    }

    @Test
    void aCorruptedLogTailIsDetectedAndDropped() throws Exception {
        try (ServeProcess s = ThisBuildServe.start(dataDir); Connection c = s.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tail (x int)");
            st.execute("INSERT INTO tail VALUES (1), (2), (3)");
            s.kill();
        }
        // Garbage after the last good record, as a torn write leaves it.
        Path log = newestSegment(dataDir);
        byte[] garbage = new byte[37];
        new Random(7).nextBytes(garbage);
        garbage[0] = 0x7f; // an implausible length prefix
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(garbage));
        }
        try (ServeProcess s = ThisBuildServe.start(dataDir); Connection c = s.connect(); Statement st = c.createStatement()) {
            assertThat(count(st, "SELECT count(*) FROM tail")).isEqualTo(3);
            assertThat(String.join("\n", s.output())).as("the server reports the cut tail").containsIgnoringCase("discarded");
            st.execute("INSERT INTO tail VALUES (4)");
            s.kill();
        }
        // A torn last record: cut the file inside the record just written.
        long size = Files.size(log);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3);
        }
        try (ServeProcess s = ThisBuildServe.start(dataDir); Connection c = s.connect(); Statement st = c.createStatement()) {
            assertThat(count(st, "SELECT count(*) FROM tail")).isEqualTo(3);
            st.execute("INSERT INTO tail VALUES (5)");
            assertThat(count(st, "SELECT sum(x) FROM tail")).isEqualTo(11);
        }
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Map<Long, Integer> ids(ServeProcess s) throws SQLException {
        Map<Long, Integer> out = new HashMap<>();
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM crash")) {
            while (rs.next()) out.merge(rs.getLong(1), 1, Integer::sum);
        }
        return out;
    }

    /** The write-ahead log segment written last ({@code wal-<n>.log}, the highest n). */
    private static Path newestSegment(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("wal-\\d+\\.log"))
                    .max(Comparator.comparing(f -> f.getFileName().toString()))
                    .orElseThrow(() -> new AssertionError("no log segment in " + dir));
        }
    }
}
