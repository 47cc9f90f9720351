package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * A collection read chunk by chunk: each {@link #next} does a bounded amount of work and
 * returns the next changes (possibly none), or null once the collection is complete.
 * What a pipelined one-shot read pulls from its inputs and what it hands to its consumer.
 *
 * <p>One thread at a time. {@link #close} releases whatever the source holds (memory
 * reservations, snapshots); idempotent, and called whether or not it was read to the end.
 */
public interface ChunkSource extends AutoCloseable {
    /** The next changes (possibly empty), or null once complete (and on every call after). */
    Changes next();

    @Override
    default void close() {}

    /** Reads {@code all} in slices of at most {@code chunkRows} entries (copied; {@code all} is not changed). */
    static ChunkSource slices(Changes all, int chunkRows) {
        if (chunkRows < 1) throw new IllegalArgumentException("chunkRows must be at least 1: " + chunkRows);
        return new ChunkSource() {
            private int position;

            @Override
            public Changes next() {
                if (position >= all.size()) return null;
                int end = (int) Math.min((long) position + chunkRows, all.size());
                Changes out = new Changes(end - position);
                for (int i = position; i < end; i++) out.add(all.row(i), all.diff(i));
                position = end;
                return out;
            }

            @Override
            public void close() { position = all.size(); }
        };
    }

    /** Everything left in {@code source}, in one Changes; closes it. */
    static Changes drain(ChunkSource source) {
        try (source) {
            Changes out = new Changes();
            for (Changes c = source.next(); c != null; c = source.next()) out.addAll(c);
            return out;
        }
    }
}
