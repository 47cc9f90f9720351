package io.stillwater.engine.plan;

/**
 * Window functions of {@link PlanNode.Window}, with PostgreSQL's semantics. The ranking
 * functions and lag/lead ignore the frame; the value functions and aggregates read it.
 */
public enum WindowFunc {
    ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST,
    /** ntile(buckets): args[0] the bucket count. */
    NTILE,
    /** lag/lead(value [, offset [, default]]): args are value, offset and default columns (offset and default optional). */
    LAG, LEAD,
    /** first_value/last_value(value), nth_value(value, n): over the frame. */
    FIRST_VALUE, LAST_VALUE, NTH_VALUE,
    /** An aggregate ({@link WindowCall#aggregate()}) over the frame. */
    AGGREGATE;

    /** Does the function read the frame (rather than the whole partition)? */
    public boolean usesFrame() {
        return this == FIRST_VALUE || this == LAST_VALUE || this == NTH_VALUE || this == AGGREGATE;
    }
}
