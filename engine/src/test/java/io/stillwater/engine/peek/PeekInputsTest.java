package io.stillwater.engine.peek;

import io.stillwater.engine.expr.EvalContext;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Choosing read times and pinning inputs, over exports the test drives by hand. */
class PeekInputsTest {
    static final Expr K = new Expr.Column(0, SqlType.INTEGER);
    /** A cancellation that turns a wait that would never end (a bug) into a failure instead of a hung build. */

    static Cancellation deadline() {
        long end = System.nanoTime() + 60_000_000_000L;
        return () -> {
            if (System.nanoTime() > end) throw new SqlException(SqlState.QUERY_CANCELED, "test guard: the read never became ready");
        };
    }

    @TempDir
    Path dir;
    TestCompute compute;
    Coordinator coord;

    @BeforeEach
    void open() {
        compute = new TestCompute();
        coord = Coordinator.open(new EngineConfig(dir, false, 1), compute);
    }

    @AfterEach
    void close() { coord.close(); }

    static TestExport export(long id, long collection) { return new TestExport(id, collection, List.of(K)); }

    static Changes one(int v) { return new Changes().add(Row.of(v), 1); }

    static PlanNode join(long left, long right) {
        PlanNode l = new PlanNode.Get(left, "l", List.of(SqlType.INTEGER));
        PlanNode r = new PlanNode.Get(right, "r", List.of(SqlType.INTEGER));
        return new PlanNode.Join(l, r, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
    }

    PeekPlan plan(PlanNode body) {
        return new PeekPlanner(compute, id -> false).plan(body, EvalContext.defaults());
    }

    @Test
    void serializableReadsExportsAtTheirLeastFrontier() {
        TestExport e1 = export(2001, 1001);
        TestExport e2 = export(2002, 1002);
        compute.add(e1).add(e2);
        e1.hydrate(5, one(1), new Changes());
        e1.advanceTo(11); // complete through 10; never compacted past 5 (no step)
        e2.hydrate(5, one(1), new Changes());
        e2.advanceTo(9);  // complete through 8
        try (PeekInputs in = PeekInputs.acquire(coord.reads(), plan(join(1001, 1002)), Isolation.SERIALIZABLE, deadline())) {
            assertThat(in.asOf()).isEqualTo(8);
            assertThat(in.hasExport(2001)).isTrue();
            assertThat(in.hasExport(2002)).isTrue();
        }
        assertThat(e1.openSnapshots).hasValue(0);
        assertThat(e2.openSnapshots).hasValue(0);
    }

    @Test
    void serializableMovesForwardWhenAnExportCompactedPastTheLeastFrontier() {
        TestExport lagging = export(2001, 1001);
        TestExport ahead = export(2002, 1002);
        compute.add(lagging).add(ahead);
        lagging.hydrate(10, one(1), new Changes());      // complete through 10
        ahead.hydrate(10, one(1), new Changes());
        ahead.step(20, one(2), new Changes());           // complete through 20, compacted to 20
        PeekPlan plan = plan(join(1001, 1002));
        CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
            try (PeekInputs in = PeekInputs.acquire(coord.reads(), plan, Isolation.SERIALIZABLE, deadline())) {
                return in.asOf();
            }
        });
        lagging.advanceTo(21); // the lagging export catches up (before or while the read waits)
        assertThat(read.join()).isEqualTo(20);
        assertThat(lagging.openSnapshots).hasValue(0);
        assertThat(ahead.openSnapshots).hasValue(0);
    }

    @Test
    void aCancelledWaitReleasesWhatWasAlreadyPinned() {
        TestExport ready = export(2001, 1001);
        TestExport cold = export(2002, 1002); // never hydrates
        compute.add(ready).add(cold);
        ready.hydrate(coord.readTimestamp(), one(1), new Changes());
        ready.advanceTo(Long.MAX_VALUE - 1);
        AtomicInteger polls = new AtomicInteger();
        Cancellation cancelSoon = () -> {
            if (polls.incrementAndGet() > 3) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        };
        assertThatThrownBy(() -> PeekInputs.acquire(coord.reads(), plan(join(1001, 1002)), Isolation.STRICT_SERIALIZABLE, cancelSoon))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED));
        assertThat(ready.openSnapshots).hasValue(0);
    }

    @Test
    void aTransactionCannotReadAnExportCompactedPastItsTime() {
        TestExport first = export(2001, 1001);
        TestExport later = export(2002, 1002);
        compute.add(first).add(later);
        first.hydrate(10, one(1), new Changes());
        later.hydrate(10, one(1), new Changes());
        PeekPlan firstRead = plan(new PlanNode.Get(1001, "l", List.of(SqlType.INTEGER)));
        try (PeekInputs txn = PeekInputs.acquireForTransaction(coord.reads(), firstRead, Isolation.SERIALIZABLE, List.of(),
                Cancellation.NONE)) {
            assertThat(txn.asOf()).isEqualTo(10);
            later.step(20, one(2), new Changes()); // compacts to 20: time 10 is gone
            PeekPlan laterRead = plan(new PlanNode.Get(1002, "r", List.of(SqlType.INTEGER)));
            assertThatThrownBy(() -> txn.extendFor(laterRead, Cancellation.NONE))
                    .isInstanceOfSatisfying(SqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.INVALID_TRANSACTION_STATE);
                        assertThat(e.getMessage()).contains("u2002", "compacted");
                    });
            // what the transaction pinned stays readable at its time
            first.step(30, one(3), new Changes());
            txn.extendFor(firstRead, Cancellation.NONE);
            assertThat(TestCompute.rows(txn.export(2001).contents(Cancellation.NONE))).containsExactly(Row.of(1));
        }
        assertThat(first.openSnapshots).hasValue(0);
    }
}
