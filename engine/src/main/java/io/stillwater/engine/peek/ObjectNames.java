package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewDef;

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

    /** Tables and views of {@code catalog} by id. */
    static ObjectNames of(Catalog catalog) {
        return id -> {
            for (TableDef t : catalog.tables()) if (t.id() == id) return t.name();
            for (ViewDef v : catalog.views()) if (v.id() == id) return v.name();
            return null;
        };
    }
}
