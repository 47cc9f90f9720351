package io.stillwater.engine.compute;

import io.stillwater.engine.dataflow.SnapshotSource;
import java.util.Set;

/**
 * The contents of a new dataflow's table inputs at {@code asOf}, kept readable by read
 * holds until {@link #close()}. Compute hydrates from it (on a worker thread, later) and
 * then closes it. Collections that compute itself holds are not in it: compute reads
 * those from its own arrangements at {@code asOf}.
 *
 * @param tableIds the plan inputs that are tables (readable from {@code tables}); every
 *                 other input is a collection compute holds. Null when the caller does
 *                 not say: compute then treats an input as a table unless it holds it.
 */
public record InputSnapshot(long asOf, SnapshotSource tables, AutoCloseable holds, Set<Long> tableIds)
        implements AutoCloseable {
    public InputSnapshot {
        tableIds = tableIds == null ? null : Set.copyOf(tableIds);
    }

    /** Without saying which inputs are tables (see {@link #tableIds}). */
    public InputSnapshot(long asOf, SnapshotSource tables, AutoCloseable holds) {
        this(asOf, tables, holds, null);
    }

    @Override
    public void close() {
        try {
            holds.close();
        } catch (Exception e) {
            throw new IllegalStateException("releasing read holds failed", e);
        }
    }
}
