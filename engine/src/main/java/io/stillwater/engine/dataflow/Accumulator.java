package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;

/**
 * The state of one aggregate for one group, kept exact under retractions: {@link #add}
 * takes an input row of the group with its diff (negative to retract), and
 * {@link #result} gives the aggregate over the group's accumulated rows. Invertible
 * aggregates (count, exact sums) keep running totals; the others (min, max, string_agg,
 * floating-point sums) keep the multiset of their values and recompute from it.
 */
interface Accumulator {
    void add(Row input, long diff);

    /** The aggregate value (null for SQL NULL); may throw an evaluation error. */
    Object result();

    /**
     * How many values this accumulator keeps (the distinct values of min, max, string_agg,
     * floating-point sums, DISTINCT arguments), for memory budgets; running totals keep none.
     */
    default long entries() { return 0; }
}
