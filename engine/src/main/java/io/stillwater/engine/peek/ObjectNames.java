package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.Catalog;

/**
 * Names of catalog objects by id, for EXPLAIN. Falls back to the id ({@code u1002}) for
 * objects it cannot name (for example an export the catalog does not describe yet).
 */
@FunctionalInterface
public interface ObjectNames {
    /** The name of object {@code id}, or null when unknown. */
    String nameOrNull(long id);

    /** {@code name (u<id>)}, or {@code u<id>} alone when the name is unknown. */
    default String describe(long id) {
        String n = nameOrNull(id);
        return n == null ? "u" + id : n + " (u" + id + ")";
    }

    /** Tables, views, materialized views and indexes of {@code catalog} by id. */
    static ObjectNames of(Catalog catalog) {
        return id -> catalog.nameOf(id).orElse(null);
    }
}
