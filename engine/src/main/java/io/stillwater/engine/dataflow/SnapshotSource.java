package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * Where a one-shot read gets its inputs: the consolidated contents of a stored
 * collection at {@code asOf} (every diff positive). Implemented over arrangement
 * snapshots by the engine; the read holds the snapshot for as long as it runs.
 */
@FunctionalInterface
public interface SnapshotSource {
    Changes read(long objectId, long asOf);
}
