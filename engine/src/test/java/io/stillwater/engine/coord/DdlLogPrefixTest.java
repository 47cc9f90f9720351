package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash can cut the log anywhere. For DDL that creates and drops (CASCADE) indexes,
 * views and materialized views, every cut leaves a log that replays into a consistent
 * catalog, and restart rebuilds a dataflow for every index and materialized view in it.
 */
class DdlLogPrefixTest {
    @TempDir
    Path dir;
    @TempDir
    Path scratch;

    @Test
    void everyCutOfTheLogReplaysToAConsistentCatalogWithEveryDataflow() throws IOException {
        // Checkpoints off: the whole history stays in one log segment, which is what this test cuts.
        Map<String, String> noCheckpoints = Map.of("checkpoint_interval", "0", "checkpoint_wal_size", "0");
        try (Coordinator coord = Coordinator.open(new EngineConfig(dir, false, 1, noCheckpoints), new RecordingCompute());
             EngineSession s = new EngineSession(coord, new StatementPlanner(UtilityParser::parse), "u", "materialize",
                     Map.of())) {
            for (String sql : List.of(
                    "CREATE TABLE t (a int, b int)",
                    "INSERT INTO t VALUES (1, 2)",
                    "CREATE VIEW v AS SELECT a, sum(b) AS s FROM t GROUP BY a",
                    "CREATE INDEX vi ON v (a)",
                    "CREATE MATERIALIZED VIEW m AS SELECT s FROM v",
                    "CREATE DEFAULT INDEX ON m",
                    "CREATE INDEX ti ON t (b)",
                    "CREATE VIEW w AS SELECT * FROM m",
                    "DROP TABLE t CASCADE")) {
                s.execute(sql);
            }
        }
        Path segment;
        try (Stream<Path> files = Files.list(dir)) {
            segment = files.filter(p -> p.getFileName().toString().matches("wal-\\d+\\.log")).findFirst().orElseThrow();
        }
        long size = Files.size(segment);
        int cuts = 0;
        int[] objectsSeen = new int[8];
        for (long cut = size; cut >= 16; cut -= Math.max(1, size / 97)) {
            Path copy = scratch.resolve("cut-" + cut);
            Files.createDirectories(copy);
            Path target = copy.resolve(segment.getFileName());
            Files.copy(segment, target);
            Files.copy(dir.resolve("wal.control"), copy.resolve("wal.control")); // names the newest segment
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                ch.truncate(cut);
            }
            RecordingCompute compute = new RecordingCompute();
            try (Coordinator coord = Coordinator.open(new EngineConfig(copy, false, 1), compute)) {
                Catalog c = coord.catalog();
                assertConsistent(c, "cut at " + cut);
                int exports = c.indexes().size() + c.materializedViews().size();
                assertThat(compute.created).as("dataflows after cut at " + cut).hasSize(exports);
                assertThat(compute.createdIds()).isSorted();
                objectsSeen[Math.min(7, exports)]++;
            }
            cuts++;
        }
        assertThat(cuts).isGreaterThan(50);
        // The cuts covered logs with none, some and all three exports.
        assertThat(objectsSeen[0]).isPositive();
        assertThat(objectsSeen[3]).isPositive();
    }

    static void assertConsistent(Catalog c, String where) {
        for (ViewDef v : c.views()) {
            for (String d : v.dependsOn()) assertThat(c.relationExists(d)).as(where + ": " + v.name() + " reads " + d).isTrue();
        }
        for (MaterializedViewDef m : c.materializedViews()) {
            for (String d : m.dependsOn()) assertThat(c.relationExists(d)).as(where + ": " + m.name() + " reads " + d).isTrue();
        }
        for (IndexDef i : c.indexes()) assertThat(c.idOf(i.onName())).as(where + ": " + i.name()).isEqualTo(i.onId());
    }
}
