package io.stillwater.engine.sql;

import io.stillwater.engine.catalog.TableDef;
import java.util.Collection;
import java.util.Optional;

/**
 * What the SQL front end may see of the catalog while planning: a consistent snapshot
 * of the user's tables by name (names already folded, e.g. lower-cased unless quoted).
 */
public interface CatalogView {
    Optional<TableDef> table(String name);

    Collection<TableDef> tables();
}
