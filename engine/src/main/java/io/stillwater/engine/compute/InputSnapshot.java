package io.stillwater.engine.compute;

import io.stillwater.engine.dataflow.SnapshotSource;

/**
 * The contents of a new dataflow's table inputs at {@code asOf}, kept readable by read
 * holds until {@link #close()}. Compute hydrates from it (on a worker thread, later) and
 * then closes it. Collections that compute itself holds are not in it: compute reads
 * those from its own arrangements at {@code asOf}.
 */
public record InputSnapshot(long asOf, SnapshotSource tables, AutoCloseable holds) implements AutoCloseable {
    @Override
    public void close() {
        try {
            holds.close();
        } catch (Exception e) {
            throw new IllegalStateException("releasing read holds failed", e);
        }
    }
}
