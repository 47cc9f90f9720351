package io.stillwater.engine.catalog;

import java.util.Locale;

/** Kinds of named relations in the catalog. */
public enum ObjectKind {
    TABLE, VIEW, MATERIALIZED_VIEW, INDEX;

    /** The kind as SQL spells it, lower case: {@code materialized view}. */
    public String word() { return name().toLowerCase(Locale.ROOT).replace('_', ' '); }
}
