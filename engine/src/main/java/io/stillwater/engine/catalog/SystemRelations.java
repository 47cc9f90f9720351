package io.stillwater.engine.catalog;

import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.data.Changes;

/**
 * The built-in relations ({@code mz_catalog.*}, {@code mz_internal.*}): virtual tables
 * with fixed ids below {@link Catalog#FIRST_USER_ID}, whose rows are computed from the
 * catalog and the replica's state when a read needs them. A plan reads one as a
 * {@code PlanNode.Get} of its id; the read path asks {@link #contents} for its rows.
 */
public final class SystemRelations {
    private SystemRelations() {}

    /** Whether {@code id} names a built-in relation rather than a user object. */
    public static boolean isSystem(long id) { return id < Catalog.FIRST_USER_ID; }

    /**
     * The rows of built-in relation {@code id} now (positive diffs), computed from
     * {@code catalog} and the coordinator's tables and compute frontiers. Reading them
     * never waits: they are always complete.
     */
    public static Changes contents(long id, Catalog catalog, Coordinator coordinator) {
        throw new IllegalArgumentException("unknown built-in relation id " + id);
    }
}
