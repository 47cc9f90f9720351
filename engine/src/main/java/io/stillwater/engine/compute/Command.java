package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import java.util.Map;

/**
 * What the workers do, in the order the coordinator issued it. Every worker receives every
 * command, in the same order, and handles its partition of the data; that shared order is
 * what lets data-parallel dataflows meet at their exchange barriers without deadlock.
 */
sealed interface Command {
    /** Build and hydrate a dataflow. */
    record Create(MaintainedDataflow dataflow) implements Command {}

    /**
     * One committed write at {@code time}: table id to its changes. Frontiers advance to
     * {@code time + 1}. {@code seq} numbers inputs in hand-over order for the replica's
     * {@link MaintenanceBacklog} and {@code handedOverNanos} is when ({@link System#nanoTime()});
     * a worker reports both once it has processed the input.
     */
    record Input(long time, Map<Long, Changes> changes, long seq, long handedOverNanos) implements Command {}

    /** No changes before {@code upper}: frontiers advance. */
    record Advance(long upper) implements Command {}

    /** Remove a dataflow's worker copies (its exports are gone and nothing imports it). */
    record Teardown(MaintainedDataflow dataflow) implements Command {}

    /**
     * Serve a read in this worker loop, between other commands (solo replicas; peek
     * dataflows on a maintenance runtime). Queued on worker 0 only, never broadcast, and
     * invisible to the workers' agreement on interleaved commands (see Worker#interleave).
     */
    record Serve(PeekTask<?> task) implements Command {}

    /** The replica closes: the worker thread exits. */
    enum Stop implements Command { INSTANCE }
}
