package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.TestPlans.agg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.memory.MemoryPool;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A pipelined one-shot read holds what its operators keep, never a whole intermediate
 * result: a cross join streams into its consumer, a long series is produced chunk by
 * chunk, top-k keeps its window. It stops at any point when cancelled, fails with 53200
 * when what it holds passes its budget, and releases every reservation however it ends.
 */
class PipelinedReadTest {
    private static final List<SqlType> INTS = List.of(SqlType.INTEGER);
    private static final PlanNode.Get A = new PlanNode.Get(1, "a", INTS);
    private static final PlanNode.Get B = new PlanNode.Get(2, "b", INTS);
    private static final PlanNode CROSS = new PlanNode.Join(A, B, JoinKind.INNER, new int[0], new int[0], null);
    private static final PlanNode COUNT = new PlanNode.Reduce(CROSS, new int[0], List.of(agg(AggFunc.COUNT_STAR, SqlType.BIGINT)));

    private static SnapshotSource tables(int rows) {
        Changes t = new Changes(rows);
        for (int i = 0; i < rows; i++) t.add(Row.of(i), 1);
        return (id, asOf) -> t;
    }

    private static Changes run(PlanNode plan, SnapshotSource source, Cancellation cancel, QueryMemory memory, int chunkRows) {
        return OneShotRead.run(plan, source, 1, EvalContext.defaults(), cancel, memory, chunkRows);
    }

    @Test
    void crossJoinCountStreamsThePairsWithoutHoldingThem() {
        // 2,000 x 2,000 = 4M pairs (~400 MB if held); the read holds one side's hash table.
        QueryMemory memory = new QueryMemory(null, 4L << 20);
        Changes count = run(COUNT, tables(2000), Cancellation.NONE, memory, PipelinedRead.DEFAULT_CHUNK_ROWS);
        assertThat(count.asList()).singleElement().satisfies(d -> assertThat(d.row()).isEqualTo(Row.of(4_000_000L)));
        assertThat(memory.peak()).as("peak reserved bytes").isLessThan(1L << 20);
        assertThat(memory.used()).isZero();
    }

    @Test
    void aLongSeriesIsProducedChunkByChunk() {
        PlanNode series = new PlanNode.GenerateSeries(List.of(new Expr.Literal(1L, SqlType.BIGINT),
                new Expr.Literal(3_000_000L, SqlType.BIGINT)), SqlType.BIGINT);
        PlanNode sum = new PlanNode.Reduce(series, new int[0], List.of(agg(AggFunc.SUM, SqlType.NUMERIC, 0)));
        QueryMemory memory = new QueryMemory(null, 1L << 20);
        Changes out = run(sum, (id, asOf) -> Changes.empty(), Cancellation.NONE, memory, 1000);
        assertThat(out.row(0).get(0).toString()).isEqualTo("4500001500000");
        assertThat(memory.peak()).isLessThan(64 << 10);
    }

    @Test
    void orderByLimitInsideAQueryKeepsItsWindow() {
        // TopK over a cross join's 1M rows keeps k rows, not its input.
        PlanNode top = new PlanNode.TopK(CROSS, new int[0], List.of(SortKey.desc(0), SortKey.asc(1)), 3, 2);
        QueryMemory memory = new QueryMemory(null, 1L << 20);
        Changes out = run(top, tables(1000), Cancellation.NONE, memory, PipelinedRead.DEFAULT_CHUNK_ROWS);
        assertThat(TestPlans.rows(out)).containsExactly(Row.of(999, 2), Row.of(999, 3), Row.of(999, 4));
        assertThat(memory.used()).isZero();
    }

    @Test
    void passingTheBudgetFails53200NamingItAndReleasesEverything() {
        // DISTINCT over 1M distinct pairs must hold them all: ~100 MB, past a 4 MB budget.
        PlanNode distinct = new PlanNode.Distinct(CROSS);
        MemoryPool pool = new MemoryPool(64L << 20);
        QueryMemory memory = new QueryMemory(pool, 4L << 20);
        assertThatThrownBy(() -> run(distinct, tables(1000), Cancellation.NONE, memory, PipelinedRead.DEFAULT_CHUNK_ROWS))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
                    assertThat(e.getMessage()).isEqualTo("query exceeded its memory budget of 4.0 MiB (max_query_memory)");
                    assertThat(e.hint()).contains("ALTER SYSTEM SET max_query_memory");
                });
        assertThat(memory.used()).as("stages released their reservations").isZero();
        memory.close();
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void aFullPoolFailsTheQueryThatAsksForMore() {
        MemoryPool pool = new MemoryPool(8L << 20);
        QueryMemory hog = new QueryMemory(pool, 1L << 30);
        hog.reserve(7L << 20); // another query holds most of the pool (6 MB past its free allowance)
        QueryMemory memory = new QueryMemory(pool, 1L << 30);
        assertThatThrownBy(() -> run(new PlanNode.Distinct(CROSS), tables(1000), Cancellation.NONE, memory,
                PipelinedRead.DEFAULT_CHUNK_ROWS))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
                    assertThat(e.getMessage()).startsWith("query exceeded the memory available to all queries");
                });
        memory.close();
        hog.close();
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void aCancelFromAnotherThreadStopsTheReadWhereverItIs() throws Exception {
        // Small chunks, and the cancel lands after more and more checks: in the hash join's
        // build, its probe (mid-bucket), the aggregate's absorbing.
        SnapshotSource source = tables(3000);
        ExecutorService canceller = Executors.newSingleThreadExecutor();
        try {
            for (long landAt : new long[] {1, 10, 1_000, 100_000, 1_000_000}) {
                AtomicBoolean cancelled = new AtomicBoolean();
                AtomicLong checks = new AtomicLong();
                AtomicLong checksAfterCancel = new AtomicLong();
                CountDownLatch reached = new CountDownLatch(1);
                Cancellation cancel = () -> {
                    if (checks.incrementAndGet() == landAt) reached.countDown();
                    if (cancelled.get()) {
                        checksAfterCancel.incrementAndGet();
                        throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
                    }
                };
                canceller.submit(() -> {
                    reached.await();
                    cancelled.set(true);
                    return null;
                });
                QueryMemory memory = QueryMemory.unlimited();
                assertThatThrownBy(() -> run(COUNT, source, cancel, memory, 7))
                        .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED));
                assertThat(checksAfterCancel).as("stopped at the first check after the cancel").hasValue(1);
                assertThat(memory.used()).isZero();
            }
        } finally {
            canceller.shutdownNow();
        }
    }

    @Test
    void closingBeforeTheEndReleasesTheRead() {
        QueryMemory memory = QueryMemory.unlimited();
        PipelinedRead read = PipelinedRead.open(CROSS, tables(1000), 1, EvalContext.defaults(), Cancellation.NONE, memory, 100);
        assertThat(read.next().size()).isPositive();
        assertThat(memory.used()).as("the join's hash table").isPositive();
        read.close();
        assertThat(memory.used()).isZero();
        assertThat(read.next()).isNull();
    }

    @Test
    void everyInputIsReadOnceEvenWhenSelfJoined() {
        AtomicLong reads = new AtomicLong();
        Changes t = Changes.insertAll(List.of(Row.of(1), Row.of(2)));
        PlanNode self = new PlanNode.Join(A, A, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        Changes out = run(self, (id, asOf) -> {
            reads.incrementAndGet();
            return t;
        }, Cancellation.NONE, QueryMemory.unlimited(), 1);
        assertThat(TestPlans.rows(out)).containsExactly(Row.of(1, 1), Row.of(2, 2));
        assertThat(reads).hasValue(1);
    }
}
