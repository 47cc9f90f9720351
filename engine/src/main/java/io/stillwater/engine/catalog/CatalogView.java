package io.stillwater.engine.catalog;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the SQL front end may see of the catalog while planning: a consistent snapshot
 * of the user's tables and views by name (names already folded, e.g. lower-cased unless
 * quoted).
 */
public interface CatalogView {
    Optional<TableDef> table(String name);

    Collection<TableDef> tables();

    /** The view {@code name}; implementations without views have none. */
    default Optional<ViewDef> view(String name) { return Optional.empty(); }

    default Collection<ViewDef> views() { return List.of(); }

    /** The materialized view {@code name}; implementations without them have none. */
    default Optional<MaterializedViewDef> materializedView(String name) { return Optional.empty(); }

    default Collection<MaterializedViewDef> materializedViews() { return List.of(); }

    /** Every index. A view with an index is read from it ({@code Get(view id)}) instead of being expanded. */
    default Collection<IndexDef> indexes() { return List.of(); }

    /** Whether some index holds the rows of the object {@code name}. */
    default boolean isIndexed(String name) {
        for (IndexDef i : indexes()) if (i.onName().equals(name)) return true;
        return false;
    }
}
