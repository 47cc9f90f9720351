package io.stillwater.cli.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing {@code GC.class_histogram} output and the growth between two of them. */
class HeapHistogramTest {
    private static final String BEFORE = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:          1000          64000  [B (java.base@25.0.3)
               2:            10            800  [I (java.base@25.0.3)
               3:             5            120  java.lang.Integer (java.base@25.0.3)
            Total          1015          64920
            """;
    private static final String AFTER = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:            12        8000800  [I (java.base@25.0.3)
               2:          1000          64000  [B (java.base@25.0.3)
               3:           100           2400  io.stillwater.engine.arrange.Batch
               4:             1            100  java.lang.Integer (java.base@25.0.3)
            Total          1113        8067300
            """;

    @Test
    void parsesEveryClassLineAndSkipsHeadersAndTotals() {
        HeapHistogram h = HeapHistogram.parse(AFTER);
        assertThat(h.bytesByClass()).containsOnly(Map.entry("[I", 8000800L), Map.entry("[B", 64000L),
                Map.entry("io.stillwater.engine.arrange.Batch", 2400L), Map.entry("java.lang.Integer", 100L));
    }

    @Test
    void growthListsOnlyClassesThatGrewLargestFirst() {
        var growth = HeapHistogram.parse(AFTER).largestGrowth(HeapHistogram.parse(BEFORE), 5);
        assertThat(growth).containsExactly(Map.entry("[I", 8000000L), Map.entry("io.stillwater.engine.arrange.Batch", 2400L));
        assertThat(HeapHistogram.parse(AFTER).largestGrowth(HeapHistogram.parse(BEFORE), 1)).hasSize(1);
    }
}
