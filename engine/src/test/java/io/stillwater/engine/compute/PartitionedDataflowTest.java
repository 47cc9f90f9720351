package io.stillwater.engine.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.Dataflow;
import io.stillwater.engine.dataflow.DataflowBuilder;
import io.stillwater.engine.dataflow.Delta;
import io.stillwater.engine.dataflow.Exchange;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.junit.jupiter.api.Test;

/**
 * Data-parallel copies of a dataflow (one per worker, exchanging through an
 * {@link ExchangeHub}) compute, together, exactly what one unpartitioned copy computes:
 * the union of the copies' outputs equals the single copy's output after every step,
 * errors included. Inputs are partitioned arbitrarily (by position), which is stricter
 * than the runtime's hash partitioning: correctness must not depend on where a row enters.
 */
class PartitionedDataflowTest {
    private static final int W = 3;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(W);

    @AfterContainer
    static void stop() { POOL.shutdownNow(); }

    record Op(long table, boolean insert, Row row, int pick) {}

    @Provide
    Arbitrary<List<List<Op>>> steps() {
        Arbitrary<Row> rows = Combinators.combine(
                Arbitraries.of(0, 1, 2).injectNull(0.2), Arbitraries.of(0, 1, 2, 3).injectNull(0.2),
                Arbitraries.of(true, false).injectNull(0.2), Arbitraries.of("x", "y").injectNull(0.2))
                .as((a, b, c, d) -> Row.of(a, b, c, d));
        Arbitrary<Op> op = Combinators.combine(Arbitraries.longs().between(1, 2), Arbitraries.of(true, true, false),
                rows, Arbitraries.integers().between(0, 1000)).as(Op::new);
        return op.list().ofMaxSize(10).list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<String> planNames() {
        return Arbitraries.of(List.copyOf(Plans.over(Plans.get(1, "t1"), Plans.get(2, "t2")).keySet()));
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void partitionedCopiesEqualOneCopy(@ForAll("planNames") String name, @ForAll("steps") List<List<Op>> steps)
            throws Exception {
        PlanNode plan = Plans.over(Plans.get(1, "t1"), Plans.get(2, "t2")).get(name);
        Dataflow single = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).build(plan);
        ExchangeHub hub = new ExchangeHub(W);
        Dataflow[] copies = new Dataflow[W];
        for (int w = 0; w < W; w++) {
            copies[w] = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).partitioned(hub.endpoint(w)).build(plan);
        }
        Map<Long, List<Row>> db = new HashMap<>();
        Map<Row, Long> expectedOk = new HashMap<>(), expectedErr = new HashMap<>();
        Map<Row, Long> actualOk = new HashMap<>(), actualErr = new HashMap<>();
        long time = 100;
        for (List<Op> step : steps) {
            Map<Long, Changes> changes = new HashMap<>();
            for (Op op : step) {
                List<Row> contents = db.computeIfAbsent(op.table(), t -> new ArrayList<>());
                Changes c = changes.computeIfAbsent(op.table(), t -> new Changes());
                if (op.insert()) {
                    contents.add(op.row());
                    c.add(op.row(), 1);
                } else if (!contents.isEmpty()) {
                    c.add(contents.remove(op.pick() % contents.size()), -1);
                }
            }
            long t = time++;
            Delta one = single.step(t, changes);
            accumulate(expectedOk, one.ok());
            accumulate(expectedErr, one.errors());
            List<Future<Delta>> parts = new ArrayList<>();
            for (int w = 0; w < W; w++) {
                int self = w;
                Map<Long, Changes> mine = new HashMap<>();
                changes.forEach((id, c) -> mine.put(id, byPosition(c, self)));
                parts.add(POOL.submit(() -> copies[self].step(t, mine)));
            }
            for (Future<Delta> f : parts) {
                Delta d = f.get(30, TimeUnit.SECONDS);
                accumulate(actualOk, d.ok());
                accumulate(actualErr, d.errors());
            }
            assertThat(actualOk).as("%s output after %s", name, steps).isEqualTo(expectedOk);
            assertThat(actualErr).as("%s errors", name).isEqualTo(expectedErr);
        }
    }

    private static Changes byPosition(Changes c, int self) {
        Changes out = new Changes();
        for (int i = self; i < c.size(); i += W) out.add(c.row(i), c.diff(i));
        return out;
    }

    private static void accumulate(Map<Row, Long> acc, Changes c) {
        for (int i = 0; i < c.size(); i++) {
            acc.merge(c.row(i), c.diff(i), Long::sum);
            if (acc.get(c.row(i)) == 0) acc.remove(c.row(i));
        }
    }

    @Test
    void partitionSendsEveryRowToTheWorkerItsKeyRoutesTo() {
        Changes in = new Changes();
        for (int i = 0; i < 1000; i++) in.add(Row.of(i % 17, "r" + i), 1);
        Changes[] parts = Exchange.partition(in, new int[] {0}, 4);
        int total = 0;
        for (int p = 0; p < 4; p++) {
            total += parts[p].size();
            for (int i = 0; i < parts[p].size(); i++) {
                Row r = parts[p].row(i);
                assertThat(Exchange.route(Row.of(r.get(0)).hashCode(), 4)).isEqualTo(p);
            }
        }
        assertThat(total).isEqualTo(1000);
        for (int p = 0; p < 4; p++) assertThat(parts[p].size()).as("keys spread over workers").isPositive();
    }

    @Test
    void exchangeIsTheIdentityForOneWorker() {
        PlanNode plan = Plans.over(Plans.get(1, "t1"), Plans.get(2, "t2")).get("reduce");
        Exchange lonely = new ExchangeHub(1).endpoint(0);
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).partitioned(lonely).build(plan);
        Changes in = new Changes().add(Row.of(1, 2, true, "x"), 1);
        // Would block forever (or fail) if an exchange node waited for peers.
        assertThat(df.step(1, Map.of(1L, in)).ok().size()).isEqualTo(1);
    }

    @Test
    void abortReleasesPeersWaitingAtTheBarrier() throws Exception {
        ExchangeHub hub = new ExchangeHub(2);
        // its own thread, not POOL: POOL belongs to the jqwik container, which runs (and shuts it
        // down) separately from this Jupiter test, and a thread left to it would outlive this class
        try (ExecutorService peer = Executors.newSingleThreadExecutor()) {
            CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(
                    () -> hub.allToAll(0, new Object[] {1L, 2L}), peer);
            hub.abort(new IllegalStateException("worker 1 failed"));
            assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ExchangeHub.Aborted.class)
                    .hasMessageContaining("worker 1 failed");
        }
        // Later rounds fail at once instead of blocking.
        assertThatThrownBy(() -> hub.allToAll(1, new Object[] {1L, 2L})).isInstanceOf(ExchangeHub.Aborted.class);
    }
}
