package io.stillwater.engine.sql.planner;

import io.stillwater.engine.sql.Statement;
import java.util.Set;

/**
 * A planned statement and the relations it names at its top level (recorded while it was
 * planned, see {@link io.stillwater.engine.catalog.RecordingCatalogView}): what the
 * session's privilege checks look at. The two travel together through the plan cache, so
 * a cached plan is checked exactly like a fresh one.
 */
public record PlannedStatement(Statement statement, Set<String> references) {
    public PlannedStatement {
        references = Set.copyOf(references);
    }
}
