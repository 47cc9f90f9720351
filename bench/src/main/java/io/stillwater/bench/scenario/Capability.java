package io.stillwater.bench.scenario;

/**
 * What a scenario may need from a target beyond plain PostgreSQL SQL. A target lacking one skips
 * the scenario with the reason recorded.
 */
public enum Capability {
    /** CREATE CLUSTER / replicas. */
    CLUSTERS,
    /** Introspection relations (arrangement sizes, dataflow operators). */
    INTROSPECTION,
    /** The interactive runtime and its system parameters. */
    INTERACTIVE_RUNTIME,
    /** ALTER SYSTEM SET as an administrative user. */
    SYSTEM_PARAMETERS,
    /** {@code CREATE INDEX name ON t (cols)} (PostgreSQL B-tree, or an arrangement). */
    INDEXES,
    /**
     * Indexes are maintained in-memory arrangements, Materialize style: {@code CREATE DEFAULT
     * INDEX}, {@code IN CLUSTER}; reads of an indexed relation can take the fast path. Implies
     * {@link #INDEXES}.
     */
    ARRANGEMENTS
}
