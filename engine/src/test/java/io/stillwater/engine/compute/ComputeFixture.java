package io.stillwater.engine.compute;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.SqlType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A real coordinator (temporary directory, no fsync) driving a real ComputeReplica. */
final class ComputeFixture implements AutoCloseable {
    final Path dir;
    final ComputeReplica replica;
    final Coordinator coordinator;
    /** Far above catalog ids (from 1000), which the fixture does not allocate exports from. */
    private long nextExportId = 1_000_000;

    ComputeFixture(int workers) { this(workers, ComputeReplica.Tuning.DEFAULTS); }

    ComputeFixture(int workers, ComputeReplica.Tuning tuning) {
        try {
            dir = Files.createTempDirectory("compute-test");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        replica = new ComputeReplica(workers, tuning);
        coordinator = Coordinator.open(new EngineConfig(dir, false, workers), replica);
    }

    /** A table of {@code (k int, v int, b boolean, s text)}. */
    PlanNode.Get table(String name) {
        List<ColumnDef> cols = List.of(new ColumnDef("k", SqlType.INTEGER, false, null),
                new ColumnDef("v", SqlType.INTEGER, false, null), new ColumnDef("b", SqlType.BOOLEAN, false, null),
                new ColumnDef("s", SqlType.TEXT, false, null));
        TableDef def = coordinator.createTable(name, cols, false).orElseThrow();
        return Plans.get(def.id(), name);
    }

    long insert(PlanNode.Get t, Row... rows) {
        List<TableChange> ch = new ArrayList<>();
        for (Row r : rows) ch.add(new TableChange(t.objectId(), r, 1));
        return coordinator.commit(ch);
    }

    long delete(PlanNode.Get t, Row... rows) {
        List<TableChange> ch = new ArrayList<>();
        for (Row r : rows) ch.add(new TableChange(t.objectId(), r, -1));
        return coordinator.commit(ch);
    }

    long index(String name, long collectionId, PlanNode plan, List<Expr> key) {
        long id = nextExportId++;
        coordinator.installDataflow(new DataflowSpec(id, name, collectionId, plan, new DataflowSpec.Export.Index(key)));
        return id;
    }

    long materializedView(String name, PlanNode plan) {
        long id = nextExportId++;
        coordinator.installDataflow(new DataflowSpec(id, name, id, plan, new DataflowSpec.Export.MaterializedView()));
        return id;
    }

    CollectionReader reader(long exportId) { return replica.reader(exportId).orElseThrow(); }

    /** Waits until the export is readable at {@code asOf}. */
    CollectionReader await(long exportId, long asOf) {
        CollectionReader r = reader(exportId);
        try {
            r.readableAt(asOf).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("export " + exportId + " not readable at " + asOf, e);
        }
        return r;
    }

    /** The export's rows (sorted, expanded) at the current read timestamp. */
    List<Row> contents(long exportId) {
        long asOf = coordinator.readTimestamp();
        try (CollectionReader.Snapshot s = await(exportId, asOf).snapshot(asOf)) {
            return Plans.expand(s.contents(Cancellation.NONE));
        }
    }

    Optional<EvalError> firstError(long exportId) {
        long asOf = coordinator.readTimestamp();
        try (CollectionReader.Snapshot s = await(exportId, asOf).snapshot(asOf)) {
            return s.firstError();
        }
    }

    List<Row> lookup(long exportId, Row key) {
        long asOf = coordinator.readTimestamp();
        try (CollectionReader.Snapshot s = await(exportId, asOf).snapshot(asOf)) {
            Changes out = new Changes();
            s.lookup(key, out::add);
            return Plans.expand(out);
        }
    }

    @Override
    public void close() {
        coordinator.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }
}
