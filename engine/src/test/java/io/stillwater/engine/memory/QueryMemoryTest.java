package io.stillwater.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import org.junit.jupiter.api.Test;

/**
 * A query's account: every byte counts against its budget, bytes past the free allowance
 * come from the shared pool in grants, surplus grants go back as it releases, and closing
 * returns everything. A full pool fails the query that asks for more, never a small read.
 */
class QueryMemoryTest {
    private static final long MB = 1L << 20;

    @Test
    void smallReadsNeverTouchThePool() {
        MemoryPool pool = new MemoryPool(4 * MB);
        try (QueryMemory q = new QueryMemory(pool, 64 * MB)) {
            q.reserve(QueryMemory.FREE_BYTES);
            assertThat(q.used()).isEqualTo(QueryMemory.FREE_BYTES);
            assertThat(pool.reserved()).isZero();
        }
    }

    @Test
    void bytesPastTheAllowanceComeFromThePoolAndGoBack() {
        MemoryPool pool = new MemoryPool(64 * MB);
        QueryMemory q = new QueryMemory(pool, 64 * MB);
        q.reserve(QueryMemory.FREE_BYTES + 1);
        assertThat(pool.reserved()).isEqualTo(MB); // one grant
        q.reserve(10 * MB);
        assertThat(pool.reserved()).isEqualTo(11 * MB);
        q.release(9 * MB);
        assertThat(pool.reserved()).as("surplus grants returned, one spare kept").isBetween(2 * MB, 3 * MB);
        assertThat(q.peak()).isEqualTo(11 * MB + 1);
        q.close();
        q.close(); // idempotent
        assertThat(pool.reserved()).isZero();
        assertThat(q.used()).isZero();
        assertThatThrownBy(() -> q.reserve(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void passingTheBudgetFailsWithItsNameAndReservesNothing() {
        MemoryPool pool = new MemoryPool(64 * MB);
        try (QueryMemory q = new QueryMemory(pool, 3 * MB / 2)) {
            q.reserve(MB);
            assertThatThrownBy(() -> q.reserve(MB)).isInstanceOfSatisfying(SqlException.class, e -> {
                assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
                assertThat(e.getMessage()).isEqualTo("query exceeded its memory budget of 1.5 MiB (max_query_memory)");
                assertThat(e.hint()).contains("ALTER SYSTEM SET max_query_memory", "as mz_system");
            });
            assertThat(q.used()).isEqualTo(MB);
        }
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void aFullPoolFailsTheQueryAskingForMoreButNotSmallReads() {
        MemoryPool pool = new MemoryPool(8 * MB);
        try (QueryMemory big = new QueryMemory(pool, 64 * MB); QueryMemory next = new QueryMemory(pool, 64 * MB);
             QueryMemory small = new QueryMemory(pool, 64 * MB)) {
            big.reserve(9 * MB); // 8 MB from the pool: all of it
            assertThat(pool.reserved()).isEqualTo(8 * MB);
            assertThatThrownBy(() -> next.reserve(2 * MB)).isInstanceOfSatisfying(SqlException.class, e -> {
                assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
                assertThat(e.getMessage()).isEqualTo("query exceeded the memory available to all queries: 8.0 MiB of"
                        + " 8.0 MiB is reserved by running queries (its own budget is 64.0 MiB, max_query_memory)");
            });
            small.reserve(512 << 10); // SELECT 1, a lookup: within the free allowance
            assertThat(small.used()).isEqualTo(512 << 10);
        }
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void theDefaultBudgetIsAQuarterOfTheHeap() {
        assertThat(QueryMemory.budgetFor(0)).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
        assertThat(QueryMemory.budgetFor(5 * MB)).isEqualTo(5 * MB);
        assertThat(MemoryPool.process().capacity()).isEqualTo((long) (Runtime.getRuntime().maxMemory() * MemoryPool.POOL_FRACTION));
    }

    @Test
    void estimatesCountHeadersArraysAndBoxedValues() {
        Row ints = Row.of(1, 2L);
        assertThat(HeapEstimate.row(ints)).isEqualTo(32 + 8 + 16 + 16);
        assertThat(HeapEstimate.row(Row.of("abc", null, true))).isEqualTo(32 + 12 + 43);
        Changes c = new Changes();
        for (int i = 0; i < 100; i++) c.add(ints, 1);
        assertThat(HeapEstimate.chunk(c)).isEqualTo(100 * (HeapEstimate.row(ints) + HeapEstimate.ENTRY));
        assertThat(HeapEstimate.chunk(new Changes())).isZero();
    }
}
