package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's handle on a replica's compute. Every command method is called by the
 * coordinator while it holds its apply lock, in timestamp order, and returns without
 * waiting for the work (the replica queues it). Read methods are called from session
 * threads.
 */
public interface ComputeController extends AutoCloseable {
    /**
     * Builds and hydrates {@code spec}'s dataflow from {@code inputs} (its tables at
     * {@code inputs.asOf()}), then maintains it with every later {@link #inputChanges}.
     * Compute closes {@code inputs} once hydrated. An index whose collection and key
     * equal an existing export's shares that export's arrangement (a re-export).
     */
    void createDataflow(DataflowSpec spec, InputSnapshot inputs);

    /** Drops the export; its arrangement lives on while another export or dataflow uses it. */
    void dropDataflow(long exportId);

    /**
     * The changes of one committed write at {@code time}, by table id (tables absent did
     * not change). Every table is complete through {@code time}: frontiers advance to
     * {@code time + 1}.
     */
    void inputChanges(long time, Map<Long, Changes> changes);

    /** Every table is complete before {@code upper} with no changes since the last command (an idle tick). */
    void advanceTo(long upper);

    /**
     * The readers of every live export holding {@code collectionId} (several indexes may
     * hold one collection), hydrated or not.
     */
    List<CollectionReader> readers(long collectionId);

    /** The reader of export {@code exportId}, if it exists. */
    Optional<CollectionReader> reader(long exportId);

    /**
     * Serves a read: the replica places it on one of its runtimes (DESIGN.md "Clusters,
     * replicas and the two runtimes") and returns at once (or after the read's inline part,
     * when that runs on the caller's thread); the session then awaits the handle. The
     * default runs it on the calling thread, to completion.
     */
    default <R> PeekHandle<R> serve(PeekRequest<R> request) { return PeekHandle.runHere(request); }

    /** Which runtime would serve a read of {@code kind} now, when this controller has runtimes (EXPLAIN). */
    default Optional<ComputeRuntime> placement(PeekKind kind, io.stillwater.engine.params.ParameterSnapshot params) {
        return Optional.empty();
    }

    /**
     * How far this replica's maintenance trails the writes handed to it ({@link
     * MaintenanceBacklog}); none for a controller that maintains nothing. Any thread.
     */
    default MaintenanceBacklog.Status backlog() { return MaintenanceBacklog.Status.NONE; }

    /**
     * Calls {@code listener} whenever maintenance finishes a write (on a worker thread: it
     * must be quick and never block), so a writer waiting for the backlog to shrink is
     * woken by progress instead of polling. One listener; a later call replaces it.
     */
    default void onMaintenanceProgress(Runnable listener) {}

    /** The replica's introspection, when it keeps any. */
    default Optional<ReplicaIntrospection> introspection() { return Optional.empty(); }

    @Override
    void close();

    /** A controller with no replica: creating a dataflow fails, nothing is readable. */
    ComputeController NONE = new ComputeController() {
        public void createDataflow(DataflowSpec spec, InputSnapshot inputs) {
            inputs.close();
            throw new UnsupportedOperationException("this engine has no compute replica");
        }
        public void dropDataflow(long exportId) {}
        public void inputChanges(long time, Map<Long, Changes> changes) {}
        public void advanceTo(long upper) {}
        public List<CollectionReader> readers(long collectionId) { return List.of(); }
        public Optional<CollectionReader> reader(long exportId) { return Optional.empty(); }
        public void close() {}
    };
}
