package io.stillwater.engine.dataflow;

import java.util.Optional;
import io.stillwater.engine.data.Changes;

/**
 * Where a one-shot read gets its inputs: the consolidated contents of a stored
 * collection at {@code asOf} (every diff positive). Implemented over arrangement
 * snapshots by the engine; the read holds the snapshot for as long as it runs.
 */
@FunctionalInterface
public interface SnapshotSource {
    Changes read(long objectId, long asOf);

    /**
     * Collection {@code objectId} as an arrangement at {@code asOf}, when it is held by
     * one (an index) that a join may probe instead of reading its contents. None by
     * default: every input is read with {@link #read}.
     */
    default Optional<ArrangedInput> arranged(long objectId, long asOf) {
        return Optional.empty();
    }

    /**
     * Collection {@code objectId} at {@code asOf} for a pipelined read, which reads it in
     * chunks (one cursor per consumer). By default its {@link #read} contents, read once.
     */
    default SourceRows rows(long objectId, long asOf) {
        return SourceRows.of(read(objectId, asOf));
    }
}
