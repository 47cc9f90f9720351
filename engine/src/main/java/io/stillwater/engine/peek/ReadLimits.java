package io.stillwater.engine.peek;

import io.stillwater.engine.memory.QueryMemory;

/**
 * What one read may hold and how its rows may be produced.
 *
 * @param memory         the read's memory account (budget {@code max_query_memory}); everything
 *                       the read holds is reserved from it, the caller closes it after the read
 * @param maxResultBytes {@code max_result_size}, counted while a read's rows are materialized
 *                       (where every row produced goes to the client); {@code Long.MAX_VALUE}
 *                       when not checked there (a LIMIT/OFFSET follows, or the rows feed a write)
 * @param stream         whether the caller pulls the rows later: a read that runs on the
 *                       caller's thread then produces them as they are pulled
 * @param immediate      the read must finish now on the calling thread without waiting, and
 *                       visit at most {@link #IMMEDIATE_ROWS} rows; otherwise it throws {@link
 *                       NotImmediate} (see {@link io.stillwater.engine.session.Session#executeImmediate})
 */
public record ReadLimits(QueryMemory memory, long maxResultBytes, boolean stream, boolean immediate) {
    /**
     * The most rows an immediate read may visit: a caller that runs reads inline (the wire
     * server's event loop) serves other connections between them, so an immediate read
     * stays in the tens of microseconds; a lookup of a key with more rows runs the ordinary way.
     */
    public static final int IMMEDIATE_ROWS = 256;

    public ReadLimits(QueryMemory memory, long maxResultBytes, boolean stream) {
        this(memory, maxResultBytes, stream, false);
    }

    /** No budget, no size limit, materialized: for tests and tools. */
    public static ReadLimits unlimited() { return new ReadLimits(QueryMemory.unlimited(), Long.MAX_VALUE, false); }
}
