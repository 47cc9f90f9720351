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
 */
public record ReadLimits(QueryMemory memory, long maxResultBytes, boolean stream) {
    /** No budget, no size limit, materialized: for tests and tools. */
    public static ReadLimits unlimited() { return new ReadLimits(QueryMemory.unlimited(), Long.MAX_VALUE, false); }
}
