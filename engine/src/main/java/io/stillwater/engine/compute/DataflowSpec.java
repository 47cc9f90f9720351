package io.stillwater.engine.compute;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import java.util.List;

/**
 * What to maintain: one export computed by one dataflow.
 *
 * @param exportId     the catalog id of the index or materialized view
 * @param name         its name, for introspection and logs
 * @param collectionId the collection the export holds: for an index the id of the
 *                     indexed table, view or materialized view; for a materialized view
 *                     its own id ({@code == exportId})
 * @param plan         computes the collection's rows. Its {@code Get}s name tables, or
 *                     collections that compute already holds (materialized views,
 *                     indexed views), which the dataflow imports instead of recomputing
 * @param export       how the output is arranged
 */
public record DataflowSpec(long exportId, String name, long collectionId, PlanNode plan, Export export) {
    /** How a dataflow's output is kept. */
    public sealed interface Export {
        /**
         * An in-memory arrangement keyed by {@code key} (expressions over the collection's
         * columns, evaluated per row; the value is the whole row).
         */
        record Index(List<Expr> key) implements Export {
            public Index {
                key = List.copyOf(key);
            }
        }

        /** A materialized view: the rows arranged by the whole row. */
        record MaterializedView() implements Export {}
    }
}
