package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.storage.CheckpointFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Checkpoints: restart from the newest checkpoint plus the log after it rebuilds exactly
 * the catalog, system parameters and table contents; the log before it is deleted; a
 * crash at any stage of a checkpoint (simulated by copying the data directory at that
 * stage, which is what a crash leaves on disk) loses nothing; damage is refused.
 */
class CheckpointTest {
    @TempDir
    Path dir;
    @TempDir
    Path scratch;

    /** The default triggers (5 min, 256MB) never fire in these tests; the shutdown checkpoint runs. */
    private static Coordinator open(Path d) { return open(d, Map.of()); }

    private static Coordinator open(Path d, Map<String, String> params) {
        return Coordinator.open(new EngineConfig(d, false, 1, params), new RecordingCompute());
    }

    private static EngineSession session(Coordinator c, String user) {
        return new EngineSession(c, new StatementPlanner(UtilityParser::parse), user, "materialize", Map.of());
    }

    private static void exec(Coordinator c, String... sql) {
        try (EngineSession s = session(c, "mz_system")) {
            for (String q : sql) s.execute(q);
        }
    }

    /** Every table's rows (sorted text) by name, the other catalog objects, and the ALTER SYSTEM overrides. */
    private static Map<String, Object> state(Coordinator c) {
        Map<String, Object> out = new TreeMap<>();
        Catalog cat = c.catalog();
        for (var t : cat.tables()) {
            out.put("table " + t.name() + " #" + t.id(), c.scan(t.id()).stream().map(Object::toString).sorted().toList());
        }
        out.put("views", cat.views().stream().map(v -> v.name() + "#" + v.id()).sorted().toList());
        out.put("indexes", cat.indexes().stream().map(i -> i.name() + "#" + i.id()).sorted().toList());
        out.put("mvs", cat.materializedViews().stream().map(m -> m.name() + "#" + m.id()).sorted().toList());
        out.put("clusters", c.clusters().toString());
        out.put("nextId", cat.nextId());
        out.put("max_result_size", c.systemParameters().get(Params.MAX_RESULT_SIZE));
        return out;
    }

    private static void workload(Coordinator c, int round) {
        exec(c, "INSERT INTO t SELECT x, x * " + round + " FROM generate_series(1, 200) AS x",
                "UPDATE t SET v = v + 1 WHERE k % 3 = " + (round % 3),
                "DELETE FROM t WHERE k % 7 = " + (round % 7),
                "INSERT INTO u VALUES (" + round + ", 'round " + round + "')");
    }

    private static void schema(Coordinator c) {
        exec(c, "CREATE TABLE t (k int, v int)",
                "CREATE TABLE u (k int, w text)",
                "CREATE TABLE gone (a int)",
                "CREATE VIEW vt AS SELECT k, sum(v) AS s FROM t GROUP BY k",
                "CREATE INDEX t_k ON t (k)",
                "CREATE MATERIALIZED VIEW mu AS SELECT count(*) AS n FROM u",
                "ALTER SYSTEM SET max_result_size = '7MB'",
                "INSERT INTO gone VALUES (1)",
                "DROP TABLE gone");
    }

    private static List<String> files(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("wal.lock") && !n.equals("wal.control")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a crash at this instant leaves: a copy of every file. */
    private static void copyDir(Path from, Path to) {
        try {
            Files.createDirectories(to);
            try (Stream<Path> s = Files.list(from)) {
                for (Path p : s.toList()) Files.copy(p, to.resolve(p.getFileName()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void restartFromACheckpointAndTheLogAfterItRebuildsTheSameState() {
        Map<String, Object> expected;
        Path crashed = scratch.resolve("crashed");
        try (Coordinator c = open(dir)) {
            schema(c);
            for (int round = 1; round <= 3; round++) workload(c, round);
            exec(c, "CHECKPOINT");
            assertThat(files(dir)).containsExactly("checkpoint-00000000000000000002.ckpt", "wal-00000000000000000002.log");
            for (int round = 4; round <= 5; round++) workload(c, round); // in the log after the checkpoint
            exec(c, "CREATE TABLE later (x int)", "INSERT INTO later VALUES (42)");
            expected = state(c);
            copyDir(dir, crashed); // a crash now: checkpoint + log, no shutdown checkpoint
        }
        try (Coordinator c = open(crashed)) {
            assertThat(state(c)).isEqualTo(expected);
            exec(c, "CREATE TABLE after_restart (y int)"); // ids go on after the checkpointed ones
            assertThat(c.catalog().table("after_restart").orElseThrow().id())
                    .isGreaterThan(c.catalog().table("later").orElseThrow().id());
        }
        // A clean shutdown checkpoints: the next start reads no log record.
        try (Coordinator c = open(dir)) {
            assertThat(state(c)).isEqualTo(expected);
        }
        assertThat(files(dir)).containsExactly("checkpoint-00000000000000000003.ckpt", "wal-00000000000000000003.log");
    }

    @ParameterizedTest
    @EnumSource(Checkpointer.Stage.class)
    void aCrashAtAnyStageOfACheckpointLosesNothing(Checkpointer.Stage stage) throws IOException {
        Path crashed = scratch.resolve("crash-" + stage);
        Map<String, Object> expected;
        try (Coordinator c = open(dir)) {
            schema(c);
            workload(c, 1);
            exec(c, "CHECKPOINT"); // a previous checkpoint: segment 1 deleted
            workload(c, 2);
            // A checkpoint that fails after starting its segment leaves two segments after the first checkpoint.
            c.checkpointer().onStage(s -> {
                if (s == Checkpointer.Stage.TEMP_WRITTEN) throw new IllegalStateException("injected failure");
            });
            assertThatThrownBy(() -> exec(c, "CHECKPOINT")).hasRootCauseMessage("injected failure");
            assertThat(files(dir)).noneMatch(n -> n.endsWith(".tmp"));
            workload(c, 3);
            expected = state(c);
            AtomicBoolean copied = new AtomicBoolean();
            c.checkpointer().onStage(s -> {
                if (s == stage && copied.compareAndSet(false, true)) copyDir(dir, crashed);
            });
            exec(c, "CHECKPOINT");
            assertThat(copied).isTrue();
            workload(c, 4); // after the crash point: not in the copy
        }
        List<String> atCrash = files(crashed);
        switch (stage) {
            case TEMP_WRITTEN -> assertThat(atCrash).contains("checkpoint-00000000000000000004.ckpt.tmp",
                    "checkpoint-00000000000000000002.ckpt", "wal-00000000000000000002.log");
            case PUBLISHED -> assertThat(atCrash).contains("checkpoint-00000000000000000004.ckpt",
                    "checkpoint-00000000000000000002.ckpt", "wal-00000000000000000002.log", "wal-00000000000000000003.log");
            case DONE -> assertThat(atCrash).containsExactly("checkpoint-00000000000000000004.ckpt",
                    "wal-00000000000000000004.log");
        }
        try (Coordinator c = open(crashed)) {
            assertThat(state(c)).isEqualTo(expected);
        }
        // Restart finished what the crash interrupted: one checkpoint, the log after it.
        assertThat(files(crashed)).hasSize(2).allMatch(n -> n.matches("checkpoint-\\d{20}\\.ckpt|wal-\\d{20}\\.log"));
    }

    @Test
    void aCrashHalfWayThroughSegmentDeletionLosesNothing() throws IOException {
        Path crashed = scratch.resolve("crashed");
        Map<String, Object> expected;
        try (Coordinator c = open(dir)) {
            schema(c);
            workload(c, 1);
            c.checkpointer().onStage(s -> {
                if (s == Checkpointer.Stage.TEMP_WRITTEN) throw new IllegalStateException("injected failure");
            });
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> exec(c, "CHECKPOINT")).hasRootCauseMessage("injected failure");
                workload(c, 2 + i);
            }
            expected = state(c);
            c.checkpointer().onStage(s -> {
                if (s == Checkpointer.Stage.PUBLISHED) copyDir(dir, crashed);
            });
            exec(c, "CHECKPOINT");
        }
        // Segments 1..4 precede the checkpoint (N = 5); the deletion got as far as segment 2.
        Files.delete(crashed.resolve("wal-00000000000000000001.log"));
        Files.delete(crashed.resolve("wal-00000000000000000002.log"));
        try (Coordinator c = open(crashed)) {
            assertThat(state(c)).isEqualTo(expected);
        }
        assertThat(files(crashed)).containsExactly("checkpoint-00000000000000000005.ckpt", "wal-00000000000000000005.log");
    }

    @Test
    void aDamagedCheckpointWhoseLogIsGoneIsRefusedNamingTheFileAndOffset() throws IOException {
        try (Coordinator c = open(dir)) {
            schema(c);
            workload(c, 1);
        }
        Path ckpt = CheckpointFile.path(dir, 2);
        assertThat(ckpt).exists();
        long size = Files.size(ckpt);
        try (FileChannel ch = FileChannel.open(ckpt, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            var b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, size / 2);
            b.flip();
            b.put(0, (byte) (b.get(0) ^ 0x10));
            ch.write(b, size / 2);
        }
        assertThatThrownBy(() -> open(dir)).isInstanceOf(SqlException.class)
                .satisfies(e -> assertThat(((SqlException) e).state()).isEqualTo(SqlState.DATA_CORRUPTED))
                .hasMessageContaining(ckpt.toString()).hasMessageContaining("byte offset");
        // Truncated: the end frame is missing.
        try (FileChannel ch = FileChannel.open(ckpt, StandardOpenOption.WRITE)) {
            ch.truncate(size - 5);
        }
        assertThatThrownBy(() -> open(dir)).isInstanceOf(SqlException.class).hasMessageContaining(ckpt.toString());
        // Deleted: the log no longer starts at its first segment, and nothing covers the gap.
        Files.delete(ckpt);
        assertThatThrownBy(() -> open(dir)).isInstanceOf(SqlException.class)
                .satisfies(e -> assertThat(((SqlException) e).state()).isEqualTo(SqlState.DATA_CORRUPTED))
                .hasMessageContaining("no checkpoint covers them");
        assertThat(files(dir)).containsExactly("wal-00000000000000000002.log");
    }

    @Test
    void aDamagedNewestCheckpointFallsBackToThePreviousOneWhileItsLogIsThere() throws IOException {
        Path crashed = scratch.resolve("crashed");
        Map<String, Object> expected;
        try (Coordinator c = open(dir)) {
            schema(c);
            workload(c, 1);
            exec(c, "CHECKPOINT"); // checkpoint 2
            workload(c, 2);
            expected = state(c);
            c.checkpointer().onStage(s -> {
                if (s == Checkpointer.Stage.PUBLISHED) copyDir(dir, crashed);
            });
            exec(c, "CHECKPOINT"); // checkpoint 3; segment 2 still there in the copy
        }
        Path newest = CheckpointFile.path(crashed, 3);
        try (FileChannel ch = FileChannel.open(newest, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(newest) - 1);
        }
        try (Coordinator c = open(crashed)) {
            assertThat(state(c)).isEqualTo(expected);
        }
    }

    @Test
    void theLogSizeTriggerCheckpointsWhileWritesGoOn() {
        try (Coordinator c = open(dir, Map.of("checkpoint_interval", "0", "checkpoint_wal_size", "16kB"))) {
            schema(c);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int round = 1;
            while (c.checkpointer().last() == null) {
                assertThat(System.nanoTime()).as("a checkpoint within 60 s").isLessThan(deadline);
                workload(c, round++);
            }
            Checkpointer.Result r = c.checkpointer().last();
            assertThat(r.segmentsDeleted()).isGreaterThanOrEqualTo(1);
            assertThat(files(dir)).doesNotContain("wal-00000000000000000001.log");
        }
    }

    @Test
    void withBothTriggersOffNoCheckpointRunsByItselfNotEvenAtShutdown() {
        Map<String, String> off = Map.of("checkpoint_interval", "0", "checkpoint_wal_size", "0");
        try (Coordinator c = open(dir, off)) {
            schema(c);
        }
        assertThat(files(dir)).containsExactly("wal-00000000000000000001.log");
        try (Coordinator c = open(dir, off)) {
            exec(c, "CHECKPOINT"); // still on request
        }
        assertThat(files(dir)).containsExactly("checkpoint-00000000000000000002.ckpt", "wal-00000000000000000002.log");
    }

    @Test
    void checkpointIsForTheSuperuserOnly() {
        try (Coordinator c = open(dir); EngineSession s = session(c, "alice")) {
            assertThatThrownBy(() -> s.execute("CHECKPOINT")).isInstanceOf(SqlException.class)
                    .satisfies(e -> assertThat(((SqlException) e).state()).isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE))
                    .hasMessage("must be superuser to do CHECKPOINT");
            assertThat(c.checkpointer().last()).isNull();
        }
    }
}
