package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoordinatorTest {
    @TempDir
    Path dir;

    static final List<ColumnDef> COLS = List.of(new ColumnDef("id", SqlType.BIGINT, true, null),
            new ColumnDef("w", SqlType.INTEGER, false, null));

    @Test
    void everyAcknowledgedWriteIsVisibleToTheNextRead() throws Exception {
        try (Coordinator c = Coordinator.open(new EngineConfig(dir, true, 1))) {
            TableDef t = c.createTable("t", COLS, false).orElseThrow();
            int writers = 8, perWriter = 200;
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        long id = (long) writer * perWriter + i;
                        c.commit(List.of(new TableChange(t.id(), Row.of(id, writer), 1)));
                        // Strict serializable: the acknowledged row is visible right away.
                        assertThat(c.scan(t.id())).contains(Row.of(id, writer));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get();
            pool.shutdown();
            assertThat(c.scan(t.id())).hasSize(writers * perWriter).doesNotHaveDuplicates();
        }
    }

    @Test
    void serializedReadModifyWritesNeverLoseUpdates() throws Exception {
        try (Coordinator c = Coordinator.open(new EngineConfig(dir, false, 1))) {
            TableDef t = c.createTable("counter", COLS, false).orElseThrow();
            c.commit(List.of(new TableChange(t.id(), Row.of(0L, 0), 1)));
            int threads = 4, increments = 50;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    for (int k = 0; k < increments; k++) {
                        c.writer().serialized(AdmissionLimit.NONE, () -> {
                            Row old = c.scan(t.id()).get(0);
                            Row next = Row.of((Long) old.get(0) + 1, 0);
                            return c.commit(List.of(new TableChange(t.id(), old, -1), new TableChange(t.id(), next, 1)));
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get();
            pool.shutdown();
            assertThat(c.scan(t.id())).containsExactly(Row.of((long) threads * increments, 0));
        }
    }

    @Test
    void catalogAndRowsAreRecoveredFromTheLog() {
        long id;
        try (Coordinator c = Coordinator.open(new EngineConfig(dir, true, 1))) {
            id = c.createTable("a", COLS, false).orElseThrow().id();
            TableDef b = c.createTable("b", COLS, false).orElseThrow();
            c.commit(List.of(new TableChange(id, Row.of(1L, 1), 1), new TableChange(b.id(), Row.of(2L, 2), 1)));
            c.commit(List.of(new TableChange(id, Row.of(1L, 1), 1)));
            c.dropTables(List.of("b"), false);
        }
        try (Coordinator c = Coordinator.open(new EngineConfig(dir, true, 1))) {
            assertThat(c.catalog().table("b")).isEmpty();
            assertThat(c.catalog().table("a").orElseThrow().id()).isEqualTo(id);
            assertThat(c.scan(id)).containsExactly(Row.of(1L, 1), Row.of(1L, 1));
            // ids are never reused
            assertThat(c.createTable("c", COLS, false).orElseThrow().id()).isGreaterThan(id + 1);
            assertThatThrownBy(() -> c.createTable("a", COLS, false)).isInstanceOf(SqlException.class)
                    .hasMessageContaining("already exists");
            assertThat(c.createTable("a", COLS, true)).isEmpty();
        }
    }
}
