package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.memory.HeapEstimate;

/**
 * One input of a one-shot read, opened once at the read time and read by one cursor per
 * operator that consumes it (a self-join reads its table twice without buffering a copy).
 * The rows are positive changes: the collection's contents at the read time.
 */
public interface SourceRows {
    /** A fresh cursor over every row, in chunks of at most about {@code chunkRows}. */
    ChunkSource cursor(int chunkRows, Cancellation cancel);

    /** Estimated heap bytes this input holds for the read (0 when it reads pinned data in place). */
    long heapBytes();

    /**
     * An input already in memory ({@code contents}, e.g. a table's snapshot copied out):
     * cursors slice it; its heap cost is one reference and count per row (the rows
     * themselves are shared with the stored collection).
     */
    static SourceRows of(Changes contents) {
        return new SourceRows() {
            @Override
            public ChunkSource cursor(int chunkRows, Cancellation cancel) { return ChunkSource.slices(contents, chunkRows); }

            @Override
            public long heapBytes() { return HeapEstimate.ENTRY * contents.size(); }
        };
    }
}
