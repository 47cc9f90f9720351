package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shared plan cache seen through sessions: repeated text and lifted literals reuse a
 * plan (SHOW plan_cache_stats counts it), literals whose meaning a parameter would change
 * are planned in place, DDL invalidates, and plan_cache_max_entries = 0 turns it off.
 */
class PlanCacheTest extends SessionTestBase {
    /** entries, hits, lifted_hits, misses, invalidations, evictions. */
    private long[] stats() {
        List<String> row = q("SHOW plan_cache_stats").get(0);
        return row.stream().mapToLong(Long::parseLong).toArray();
    }

    private void table() {
        q0("CREATE TABLE t (k int, v text, s smallint)");
        q0("INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
        q0("CREATE INDEX t_k ON t (k)");
    }

    private void q0(String sql) { s.execute(sql); }

    @Test
    void theSameTextIsPlannedOnce() {
        long[] before = stats();
        assertThat(q("SELECT 1")).containsExactly(List.of("1"));
        assertThat(q("SELECT 1")).containsExactly(List.of("1"));
        long[] after = stats();
        assertThat(after[1] - before[1]).as("hits").isEqualTo(1);
        assertThat(after[3] - before[3]).as("misses").isEqualTo(1);
    }

    @Test
    void literalsComparedWithColumnsShareOnePlan() {
        table();
        long[] before = stats();
        assertThat(q("SELECT v FROM t WHERE k = 1")).containsExactly(List.of("a"));
        assertThat(q("SELECT v FROM t WHERE k = 2")).containsExactly(List.of("b"));
        assertThat(q("SELECT v FROM t WHERE k = 3 AND v = 'c'")).containsExactly(List.of("c"));
        assertThat(q("SELECT v FROM t WHERE k = 3 AND v = 'x'")).isEmpty();
        long[] after = stats();
        assertThat(after[2] - before[2]).as("lifted hits").isEqualTo(2);
        assertThat(after[3] - before[3]).as("misses").isEqualTo(2);
        // Another session shares the plans. A text bound from the lifted plan a second time is
        // kept as it is too, so the third time it is found by its text.
        Session other = engine.connect("materialize", "materialize", Map.of());
        try {
            assertThat(rows(other.execute("SELECT v FROM t WHERE k = 2"))).containsExactly(List.of("b"));
            assertThat(rows(other.execute("SELECT v FROM t WHERE k = 2"))).containsExactly(List.of("b"));
        } finally {
            other.close();
        }
        assertThat(stats()[2] - after[2]).as("lifted hits").isEqualTo(1);
        assertThat(stats()[1] - after[1]).as("exact hits").isEqualTo(1);
        assertThat(stats()[3] - after[3]).as("misses").isZero();
    }

    @Test
    void literalsAParameterWouldChangeArePlannedInPlace() {
        table();
        assertThat(q("SELECT v FROM t WHERE k = 1")).containsExactly(List.of("a"));
        // int = 1.5 compares as numeric: false, not an error reading 1.5 as an integer.
        assertThat(q("SELECT v FROM t WHERE k = 1.5")).isEmpty();
        assertThat(q("SELECT v FROM t WHERE s = 2")).containsExactly(List.of("b"));
        assertThat(q("SELECT v FROM t WHERE s = 100000")).isEmpty();
        assertThat(q("SELECT v FROM t ORDER BY 1 DESC LIMIT 1")).containsExactly(List.of("c"));
        assertThat(q("SELECT v FROM t ORDER BY 1 LIMIT 2")).containsExactly(List.of("a"), List.of("b"));
        assertThat(q("SELECT k FROM t WHERE k IN (1, 3) ORDER BY k")).containsExactly(List.of("1"), List.of("3"));
        assertThat(q("SELECT k FROM t WHERE k IN (2) ORDER BY k")).containsExactly(List.of("2"));
    }

    @Test
    void insertsShareOnePlanAndKeepTheirErrors() {
        table();
        long[] before = stats();
        assertThat(tag("INSERT INTO t VALUES (4, 'd', 4)")).isEqualTo("INSERT 0 1");
        assertThat(tag("INSERT INTO t VALUES (5, 'e', 5), (6, 'f', 6)")).isEqualTo("INSERT 0 2");
        assertThat(tag("INSERT INTO t VALUES (7, 'g', 7)")).isEqualTo("INSERT 0 1");
        assertThat(stats()[2] - before[2]).as("lifted hits").isEqualTo(1);
        assertState("22P02", "INSERT INTO t VALUES ('x', 'h', 8)");
        assertState("22003", "INSERT INTO t VALUES (8, 'h', 100000)");
        assertThat(q("SELECT k, v FROM t WHERE k >= 4 ORDER BY k"))
                .containsExactly(List.of("4", "d"), List.of("5", "e"), List.of("6", "f"), List.of("7", "g"));
    }

    @Test
    void ddlReplansAStatementAgainstTheNewCatalog() {
        q0("CREATE TABLE r (a int, b int)");
        q0("INSERT INTO r VALUES (1, 2)");
        assertThat(q("SELECT * FROM r WHERE a = 1")).containsExactly(List.of("1", "2"));
        assertThat(q("SELECT * FROM r")).containsExactly(List.of("1", "2"));
        long[] before = stats();
        q0("DROP TABLE r");
        q0("CREATE TABLE r (x text, a int)");
        q0("INSERT INTO r VALUES ('z', 1)");
        assertThat(q("SELECT * FROM r WHERE a = 1")).containsExactly(List.of("z", "1"));
        assertThat(q("SELECT * FROM r")).containsExactly(List.of("z", "1"));
        assertThat(stats()[4] - before[4]).as("invalidations").isGreaterThanOrEqualTo(2);
    }

    @Test
    void zeroEntriesTurnsTheCacheOff() {
        table();
        q("SELECT v FROM t WHERE k = 1");
        Session admin = engine.connect("mz_system", "materialize", Map.of());
        try {
            admin.execute("ALTER SYSTEM SET plan_cache_max_entries = 0");
            long[] before = stats();
            assertThat(q("SELECT v FROM t WHERE k = 2")).containsExactly(List.of("b"));
            assertThat(q("SELECT v FROM t WHERE k = 2")).containsExactly(List.of("b"));
            long[] after = stats();
            assertThat(after[0]).as("entries").isZero();
            assertThat(after[1] + after[2] + after[3]).isEqualTo(before[1] + before[2] + before[3]);
        } finally {
            admin.close();
        }
    }
}
