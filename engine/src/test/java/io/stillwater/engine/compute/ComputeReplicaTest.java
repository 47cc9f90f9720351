package io.stillwater.engine.compute;

import static io.stillwater.engine.compute.Plans.K;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ComputeReplicaTest {
    private static Row row(Integer k, Integer v) { return Row.of(k, v, true, "x"); }

    @Test
    void indexOnTwoWorkersServesLookupsAndWalks() {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            f.insert(t, row(1, 10), row(2, 20), row(2, 21), row(3, 30));
            long idx = f.index("t_k", t.objectId(), t, List.of(K));
            f.insert(t, row(4, 40));
            f.delete(t, row(2, 20));
            assertThat(f.lookup(idx, Row.of(2))).containsExactly(row(2, 21));
            assertThat(f.lookup(idx, Row.of(4))).containsExactly(row(4, 40));
            assertThat(f.lookup(idx, Row.of(9))).isEmpty();
            assertThat(f.contents(idx)).containsExactly(row(1, 10), row(2, 21), row(3, 30), row(4, 40));
            CollectionReader r = f.reader(idx);
            assertThat(r.key()).isEqualTo(List.of(K));
            assertThat(r.collectionId()).isEqualTo(t.objectId());
            long asOf = f.coordinator.readTimestamp();
            try (CollectionReader.Snapshot s = f.await(idx, asOf).snapshot(asOf)) {
                List<Row> seen = new ArrayList<>();
                long positions = s.walk((row, d) -> seen.add(row), Cancellation.NONE);
                assertThat(seen).hasSize(4);
                assertThat(positions).isGreaterThanOrEqualTo(4);
            }
        }
    }

    @Test
    void reExportSharesTheArrangementAndKeepsServingWhenTheFirstIsDropped() {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            f.insert(t, row(1, 10));
            long first = f.index("first", t.objectId(), t, List.of(K));
            long second = f.index("second", t.objectId(), t, List.of(K));
            var info1 = f.replica.export(first).orElseThrow();
            var info2 = f.replica.export(second).orElseThrow();
            assertThat(info2.dataflowId()).as("the re-export reads the first's trace").isEqualTo(info1.dataflowId());
            assertThat(f.replica.readers(t.objectId())).hasSize(2);

            f.coordinator.uninstallDataflow(first);
            assertThat(f.replica.reader(first)).isEmpty();
            f.insert(t, row(2, 20));
            assertThat(f.contents(second)).containsExactly(row(1, 10), row(2, 20));
            assertThat(f.replica.export(second).orElseThrow().hydrated()).isTrue();
        }
    }

    @Test
    void anImportedMaterializedViewStaysAliveForItsImporterAfterDrop() {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            f.insert(t, row(1, 1), row(2, 5));
            PlanNode big = new PlanNode.Filter(t, List.of(Plans.call(Func.GT, SqlType.BOOLEAN, Plans.V, Plans.lit(2, SqlType.INTEGER))));
            long mv = f.materializedView("big", big);
            assertThat(f.contents(mv)).containsExactly(row(2, 5));
            // An index on the materialized view reads its collection (an import, not the table).
            long idx = f.index("big_k", mv, new PlanNode.Get(mv, "big", Plans.TYPES), List.of(K));
            assertThat(f.contents(idx)).containsExactly(row(2, 5));

            f.coordinator.uninstallDataflow(mv);
            assertThat(f.replica.reader(mv)).isEmpty();
            f.insert(t, row(3, 7), row(4, 0));
            assertThat(f.contents(idx)).containsExactly(row(2, 5), row(3, 7));
            f.coordinator.uninstallDataflow(idx);
            assertThat(f.replica.exports()).isEmpty();
        }
    }

    @Test
    void droppingAnExportFailsReadsWaitingForIt() throws Exception {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            long idx = f.index("t_k", t.objectId(), t, List.of(K));
            CompletableFuture<Void> far = f.reader(idx).readableAt(Long.MAX_VALUE - 1);
            f.coordinator.uninstallDataflow(idx);
            assertThatThrownBy(() -> far.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("dropped");
        }
    }

    @Test
    void evaluationErrorsAreDataAndDoNotStopTheWorkers() {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            PlanNode ratio = new PlanNode.Project(t, List.of(K, Plans.call(Func.DIVIDE, SqlType.INTEGER, K, Plans.V)));
            long mv = f.materializedView("ratio", ratio);
            f.insert(t, row(4, 2));
            assertThat(f.firstError(mv)).isEmpty();
            f.insert(t, row(1, 0));
            assertThat(f.firstError(mv)).contains(new EvalError(SqlState.DIVISION_BY_ZERO, "division by zero"));
            f.insert(t, row(6, 3)); // maintenance goes on
            assertThat(f.contents(mv)).contains(Row.of(6, 2));
            f.delete(t, row(1, 0));
            assertThat(f.firstError(mv)).isEmpty();
            assertThat(f.contents(mv)).containsExactly(Row.of(4, 2), Row.of(6, 2));
        }
    }

    @Test
    void aDataflowThatThrowsFailsAloneAndReleasesItsPeers() throws Exception {
        try (ComputeFixture f = new ComputeFixture(2)) {
            PlanNode.Get t = f.table("t");
            long healthy = f.index("healthy", t.objectId(), t, List.of(K));
            // NOT over an integer column: a bug (ClassCastException), not an evaluation error.
            PlanNode broken = new PlanNode.Project(t, List.of(Plans.call(Func.NOT, SqlType.BOOLEAN, new Expr.Column(0, SqlType.BOOLEAN))));
            long bad = f.materializedView("broken", broken);
            long ts = f.insert(t, row(1, 1));
            // Only one worker holds the row; the other waits at the output exchange until
            // the failure aborts it: the read fails instead of hanging.
            assertThatThrownBy(() -> f.reader(bad).readableAt(ts).get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("\"broken\" failed");
            assertThat(f.replica.export(bad).orElseThrow().failed()).isTrue();
            f.insert(t, row(2, 2));
            assertThat(f.contents(healthy)).containsExactly(row(1, 1), row(2, 2));
        }
    }

    @Test
    void anIndexKeyThatFailsToEvaluateIsAnError() {
        try (ComputeFixture f = new ComputeFixture(1)) {
            PlanNode.Get t = f.table("t");
            Expr key = Plans.call(Func.DIVIDE, SqlType.INTEGER, K, Plans.V);
            long idx = f.index("t_ratio", t.objectId(), t, List.of(key));
            f.insert(t, row(4, 2), row(1, 0));
            assertThat(f.firstError(idx)).map(EvalError::state).contains(SqlState.DIVISION_BY_ZERO);
            assertThat(f.lookup(idx, Row.of(2))).containsExactly(row(4, 2));
        }
    }

    @Test
    void beforeHydrationTheFrontierIsMinimalAndReadsWait() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        PlanNode.Get t = Plans.get(1, "t");
        try (ComputeReplica replica = new ComputeReplica(2)) {
            InputSnapshot inputs = new InputSnapshot(5, (id, asOf) -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return new Changes().add(row(1, 1), 1);
            }, () -> closed.set(true), Set.of(1L));
            replica.createDataflow(new DataflowSpec(77, "idx", 1, t, new DataflowSpec.Export.Index(List.of(K))), inputs);
            replica.inputChanges(6, Map.of(1L, new Changes().add(row(2, 2), 1)));
            CollectionReader r = replica.reader(77).orElseThrow();
            CompletableFuture<Void> at6 = r.readableAt(6);
            assertThat(r.upper()).isEqualTo(Long.MIN_VALUE);
            assertThat(at6).isNotDone();
            assertThat(replica.export(77).orElseThrow().hydrated()).isFalse();
            release.countDown();
            at6.get(30, TimeUnit.SECONDS);
            assertThat(r.upper()).isEqualTo(7);
            assertThat(closed).as("compute releases the input snapshot after hydrating").isTrue();
            try (CollectionReader.Snapshot s = r.snapshot(6)) {
                assertThat(Plans.expand(s.contents(Cancellation.NONE))).containsExactly(row(1, 1), row(2, 2));
            }
            try (CollectionReader.Snapshot s = r.snapshot(5)) {
                assertThat(Plans.expand(s.contents(Cancellation.NONE))).containsExactly(row(1, 1));
            }
        }
    }

    @Test
    void otherDataflowsKeepUpWhileALargeOneHydrates() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        PlanNode.Get small = Plans.get(1, "small");
        PlanNode.Get large = Plans.get(2, "large");
        Changes many = new Changes();
        for (int i = 0; i < 5_000; i++) many.add(row(i, 0), 1);
        try (ComputeReplica replica = new ComputeReplica(2, new ComputeReplica.Tuning(10, 1_000, 4_096))) {
            replica.createDataflow(new DataflowSpec(71, "small_k", 1, small, new DataflowSpec.Export.Index(List.of(K))),
                    new InputSnapshot(5, (id, asOf) -> new Changes(), () -> {}, Set.of(1L)));
            replica.createDataflow(new DataflowSpec(72, "large_k", 2, large, new DataflowSpec.Export.Index(List.of(K))),
                    new InputSnapshot(5, (id, asOf) -> {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return many;
                    }, () -> {}, Set.of(2L)));
            replica.inputChanges(6, Map.of(1L, new Changes().add(row(1, 1), 1),
                    2L, new Changes().add(row(-1, -1), 1)));
            CollectionReader smallR = replica.reader(71).orElseThrow();
            CollectionReader largeR = replica.reader(72).orElseThrow();
            // Runs on the worker completing small_k's frontier (the trace's own future, not
            // the reader's, which hands off to another thread): that worker is between two
            // of large_k's hydration chunks, so large_k cannot have hydrated yet.
            CompletableFuture<Long> largeUpperThen = ((ExportReader) smallR).trace().readableAt(6)
                    .thenApply(v -> largeR.upper());
            release.countDown();
            assertThat(largeUpperThen.get(60, TimeUnit.SECONDS)).isEqualTo(Long.MIN_VALUE);
            largeR.readableAt(6).get(60, TimeUnit.SECONDS);
            try (CollectionReader.Snapshot s = largeR.snapshot(6)) {
                assertThat(Plans.expand(s.contents(Cancellation.NONE))).hasSize(5_001).contains(row(-1, -1));
            }
            try (CollectionReader.Snapshot s = smallR.snapshot(6)) {
                assertThat(Plans.expand(s.contents(Cancellation.NONE))).containsExactly(row(1, 1));
            }
            assertThat(replica.export(72).orElseThrow().hydrationSteps()).isGreaterThan(100);
        }
    }

    @Test
    void aLargeTableHydratesInChunksThenServesLookups() {
        ComputeReplica.Tuning tuning = new ComputeReplica.Tuning(10_000, 1_000, 4_096);
        try (ComputeFixture f = new ComputeFixture(2, tuning)) {
            PlanNode.Get t = f.table("big");
            List<LogRecord.TableChange> rows = new ArrayList<>();
            for (int i = 0; i < 200_000; i++) {
                rows.add(new LogRecord.TableChange(t.objectId(), row(i, i % 7), 1));
            }
            f.coordinator.commit(rows);
            long idx = f.index("big_k", t.objectId(), t, List.of(K));
            assertThat(f.lookup(idx, Row.of(123_456))).containsExactly(row(123_456, 123_456 % 7));
            var info = f.replica.export(idx).orElseThrow();
            assertThat(info.hydrated()).isTrue();
            // 200k rows over 2 workers in chunks of 10k: about 10 activations, never one big step.
            assertThat(info.hydrationSteps()).isGreaterThanOrEqualTo(10);
            assertThat(info.updates()).isEqualTo(200_000);
            f.insert(t, row(-1, 0));
            assertThat(f.lookup(idx, Row.of(-1))).containsExactly(row(-1, 0));
        }
    }
}
