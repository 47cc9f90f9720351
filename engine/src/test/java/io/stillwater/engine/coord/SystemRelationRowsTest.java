package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.Interval;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Rows of built-in relations computed from the process and the clock. */
class SystemRelationRowsTest {

    /** mz_internal.mz_process_memory: one row whose values keep the relations one JVM snapshot guarantees. */
    @Test
    void oneRowOfConsistentHeapFigures() {
        assertThat(SystemRelations.lookup("mz_internal", "mz_process_memory")).get()
                .satisfies(b -> assertThat(b.def().columns()).extracting(ColumnDef::name).containsExactly(
                        "heap_used_bytes", "heap_after_gc_bytes", "heap_committed_bytes", "heap_max_bytes", "rss_bytes"));
        System.gc(); // so the after-GC figure has a collection to report
        Row r = SystemRelationRows.processMemory();
        long used = (Long) r.get(0);
        long afterGc = (Long) r.get(1);
        long committed = (Long) r.get(2);
        Long max = (Long) r.get(3);
        Long rss = (Long) r.get(4);
        assertThat(used).isPositive().isLessThanOrEqualTo(committed);
        assertThat(afterGc).isPositive();
        if (max != null) {
            assertThat(committed).isLessThanOrEqualTo(max);
        }
        if (Files.isReadable(Path.of("/proc/self/status"))) {
            assertThat(rss).isNotNull().isPositive();
        }
    }

    @Test
    void lagIsWallClockMinusTheLastCompleteTime() {
        assertThat(SystemRelationRows.lag(10_000, 9_001)).isEqualTo(new Interval(0, 0, 1_000_000));
        assertThat(SystemRelationRows.lag(10_000, 10_001)).isEqualTo(Interval.ZERO);
        assertThat(SystemRelationRows.lag(10_000, 20_000)).isEqualTo(Interval.ZERO);
    }
}
