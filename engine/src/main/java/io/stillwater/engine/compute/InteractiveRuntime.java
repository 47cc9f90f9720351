package io.stillwater.engine.compute;

/**
 * The interactive runtime of a two-runtime replica (DESIGN.md "Clusters, replicas and the
 * two runtimes"), beside its {@link MaintenanceRuntime}: it serves fast-path lookups and
 * walks, introspection reads, and peek dataflows when {@code
 * enable_compute_interactive_dataflows} is on, concurrently with each other and with
 * maintenance, over the published, immutable snapshots of the replica's arrangements.
 *
 * <p><b>Thread-per-read.</b> It has no threads and no queue of its own: a read's inline
 * part runs on the calling session's thread, so any number of reads run at once and a
 * point lookup never waits behind a walk (a reader is not a single queue). A walk past
 * {@code compute_index_peek_inline_budget} positions continues on the replica's {@link
 * OffloadPool} when {@code enable_compute_index_peek_offload} is on, else on to its end on
 * the session's thread, still checking cancellation ({@link PeekTask#runInline}). A read
 * whose rows the session pulls after {@code await} ({@link PeekWork#streams}) stays in
 * flight until the session reports its end.
 *
 * <p>A solo replica has none: every read queues in its maintenance runtime's worker loop
 * ({@link MaintenanceRuntime#serve}). Stateless, so any thread may call it.
 */
final class InteractiveRuntime {

    /** Runs {@code task}'s inline part now, on the calling (session) thread. */
    void serve(PeekTask<?> task) {
        task.runInline();
    }
}
