package io.stillwater.engine.compute;

import io.stillwater.engine.params.ParameterSnapshot;
import java.util.List;
import java.util.Optional;

/**
 * What sessions read from a replica's compute: the arrangements of its exports, serving
 * a read on one of its runtimes, how far maintenance trails the writes, introspection.
 * Called from session threads (and, for the backlog, the coordinator's writers); never
 * blocks on the replica's workers. Commands go through {@link ComputeCommands}.
 */
public interface ComputeReads {
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
    default Optional<ComputeRuntime> placement(PeekKind kind, ParameterSnapshot params) {
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

    /** Reads of no replica: no exports, reads run on the calling thread. */
    ComputeReads NONE = ComputeController.NONE;
}
