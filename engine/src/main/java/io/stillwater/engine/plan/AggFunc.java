package io.stillwater.engine.plan;

/** Aggregate functions of {@link PlanNode.Reduce}. */
public enum AggFunc {
    /** count(*): args empty. */
    COUNT_STAR,
    /** count(x): non-null values. */
    COUNT,
    SUM, AVG, MIN, MAX,
    BOOL_AND, BOOL_OR,
    /** string_agg(value, separator): args[0] value, args[1] separator column. */
    STRING_AGG,
    /** Internal: the single value of a scalar subquery's group; more than one row is error 21000. */
    SINGLE_VALUE,
    /** Statistical aggregates (numeric/double), as in PostgreSQL. */
    STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP,
    /** array_agg(value [ORDER BY ...]): NULL values included; NULL over no rows. */
    ARRAY_AGG,
    /** jsonb_agg(value [ORDER BY ...]): values as jsonb (NULL as null); NULL over no rows. */
    JSONB_AGG,
    /** jsonb_object_agg(key, value [ORDER BY ...]): args[0] key, args[1] value; NULL over no rows. */
    JSONB_OBJECT_AGG,
}
