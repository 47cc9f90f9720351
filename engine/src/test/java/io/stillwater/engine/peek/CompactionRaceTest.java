package io.stillwater.engine.peek;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * A strict serializable read that waits for a hydration longer than the export's
 * compaction lag finds its chosen time compacted away once the index is readable; it
 * must choose a newer time (still at or after every acknowledged write) instead of
 * failing with an internal error. The replica here compacts with no lag at all, so every
 * read that waits at all meets the race.
 */
class CompactionRaceTest {
    @TempDir
    Path dir;

    @RepeatedTest(5)
    void aReadRightAfterCreateIndexOnABigTableNeverFailsOnCompaction() {
        ComputeReplica replica = new ComputeReplica(2, new ComputeReplica.Tuning(2_000, 0, 1_024));
        try (Coordinator coord = Coordinator.open(new EngineConfig(dir, false, 2), replica)) {
            EngineSession s = new EngineSession(coord, new StatementPlanner(UtilityParser::parse), "materialize",
                    "materialize", Map.of());
            s.execute("CREATE TABLE big (id bigint, payload text)");
            s.execute("INSERT INTO big SELECT x, 'payload-' || x FROM generate_series(1, 50000) AS x");
            for (int i = 0; i < 3; i++) {
                s.execute("CREATE INDEX big_payload_" + i + " ON big (payload)");
                s.execute("INSERT INTO big VALUES (-" + i + ", 'fresh')");
                ExecutionResult.Rows rows = (ExecutionResult.Rows) s.execute(
                        "SELECT id FROM big WHERE payload = 'payload-" + (i + 1) + "'");
                assertThat(rows.rows()).containsExactly(Row.of((long) (i + 1)));
                s.execute("DROP INDEX big_payload_" + i);
            }
            s.close();
        }
    }
}
