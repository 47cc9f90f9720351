package io.stillwater.engine.catalog;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link CatalogView} whose planner records the relations the statement names
 * directly (not those inside the views it expands): what privilege checks look at, as
 * PostgreSQL checks the statement's user on what the statement names and a view's owner
 * on what the view reads. The planner fills {@link #references()} through {@link
 * #sinkOf}. One per planned statement; not thread-safe.
 */
public final class RecordingCatalogView implements CatalogView {
    private final CatalogView inner;
    private final Set<String> references = new LinkedHashSet<>();

    public RecordingCatalogView(CatalogView inner) { this.inner = inner; }

    /** The names of the tables, views and materialized views the statement named, in order. */
    public Set<String> references() { return references; }

    /** Where a planner records the names {@code catalog} resolves at the statement's top level; null if it records none. */
    public static Set<String> sinkOf(CatalogView catalog) {
        return catalog instanceof RecordingCatalogView r ? r.references : null;
    }

    @Override
    public Optional<TableDef> table(String name) { return inner.table(name); }

    @Override
    public Collection<TableDef> tables() { return inner.tables(); }

    @Override
    public Optional<ViewDef> view(String name) { return inner.view(name); }

    @Override
    public Collection<ViewDef> views() { return inner.views(); }

    @Override
    public Optional<MaterializedViewDef> materializedView(String name) { return inner.materializedView(name); }

    @Override
    public Collection<MaterializedViewDef> materializedViews() { return inner.materializedViews(); }

    @Override
    public Collection<IndexDef> indexes() { return inner.indexes(); }

    @Override
    public boolean isIndexed(String name) { return inner.isIndexed(name); }
}
