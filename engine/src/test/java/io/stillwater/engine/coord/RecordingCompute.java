package io.stillwater.engine.coord;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A compute controller that maintains nothing and records the commands it gets, so
 * tests can check what the coordinator asks of compute and in which order. Its readers
 * report an upper the test sets ({@link #hydrate}); they cannot be read.
 */
final class RecordingCompute implements ComputeController {
    final List<DataflowSpec> created = new ArrayList<>();
    final List<Long> dropped = new ArrayList<>();
    final List<Long> advancedTo = new ArrayList<>();
    final List<Long> asOfs = new ArrayList<>();
    private final Map<Long, Reader> readers = new ConcurrentHashMap<>();

    @Override
    public synchronized void createDataflow(DataflowSpec spec, InputSnapshot inputs) {
        created.add(spec);
        asOfs.add(inputs.asOf());
        inputs.close();
        List<Expr> key = spec.export() instanceof DataflowSpec.Export.Index i ? i.key() : List.of();
        readers.put(spec.exportId(), new Reader(spec.exportId(), spec.collectionId(), key));
    }

    @Override
    public synchronized void dropDataflow(long exportId) {
        dropped.add(exportId);
        readers.remove(exportId);
    }

    @Override
    public void inputChanges(long time, Map<Long, Changes> changes) { }

    @Override
    public synchronized void advanceTo(long upper) { advancedTo.add(upper); }

    synchronized List<Long> createdIds() { return created.stream().map(DataflowSpec::exportId).toList(); }

    synchronized List<Long> advances() { return List.copyOf(advancedTo); }

    /** Makes export {@code exportId} report {@code upper} (hydrated through upper - 1). */
    void hydrate(long exportId, long upper) { readers.get(exportId).upper = upper; }

    @Override
    public List<CollectionReader> readers(long collectionId) {
        return readers.values().stream().filter(r -> r.collectionId == collectionId).map(r -> (CollectionReader) r).toList();
    }

    @Override
    public Optional<CollectionReader> reader(long exportId) { return Optional.ofNullable(readers.get(exportId)); }

    @Override
    public void close() { }

    private static final class Reader implements CollectionReader {
        final long exportId;
        final long collectionId;
        final List<Expr> key;
        volatile long upper = Long.MIN_VALUE;

        Reader(long exportId, long collectionId, List<Expr> key) {
            this.exportId = exportId;
            this.collectionId = collectionId;
            this.key = key;
        }

        public long exportId() { return exportId; }

        public long collectionId() { return collectionId; }

        public List<Expr> key() { return key; }

        public long upper() { return upper; }

        public CompletableFuture<Void> readableAt(long t) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("recording compute holds no data"));
        }

        public Snapshot snapshot(long asOf) { throw new UnsupportedOperationException("recording compute holds no data"); }
    }
}
