package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReads;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Classifies a SELECT body into its read path (DESIGN.md "Reads (peeks)"):
 * <ol>
 *   <li>no stored inputs: {@link PeekPlan.Constant};</li>
 *   <li>a Filter/Project chain over one collection that compute holds: a
 *       {@link PeekPlan.FastPathLookup} when equality predicates fix the whole key of one
 *       of its exports, else a {@link PeekPlan.FastPathWalk};</li>
 *   <li>everything else, and every read of an unindexed table: a
 *       {@link PeekPlan.PeekDataflow}.</li>
 * </ol>
 * When several exports hold a collection, hydrated ones are preferred, then the oldest
 * (lowest export id), so repeated reads choose the same arrangement. An index of a table
 * that holds evaluation errors is never chosen ({@link CollectionReader#holdsErrors}).
 *
 * <p>Stateless apart from its collaborators; one per session or shared.
 */
public final class PeekPlanner {
    private final ComputeReads compute;
    private final LongPredicate isTable;
    private final boolean tablesDirectly;

    /**
     * @param compute  where collections held by indexes and materialized views are found
     * @param isTable  whether an object id is a table of the current catalog
     */
    public PeekPlanner(ComputeReads compute, LongPredicate isTable) {
        this(compute, isTable, false);
    }

    private PeekPlanner(ComputeReads compute, LongPredicate isTable, boolean tablesDirectly) {
        this.compute = compute;
        this.isTable = isTable;
        this.tablesDirectly = tablesDirectly;
    }

    /**
     * A planner that reads tables from their own snapshots even when an index holds them
     * (other collections still come from compute): for the reads of writes, which must
     * see the table itself (an index's evaluation error must not block the DELETE that
     * removes the offending row) at the newest time without waiting for compute.
     */
    public static PeekPlanner readingTablesDirectly(ComputeReads compute, LongPredicate isTable) {
        return new PeekPlanner(compute, isTable, true);
    }

    /**
     * The read path for {@code body} (parameters already bound). {@code ctx} evaluates
     * the constants of lookup predicates.
     *
     * @throws SqlException 42P01 when a {@code Get} names an object that is neither a
     *     table, a built-in relation, nor held by a compute export (dropped meanwhile)
     */
    public PeekPlan plan(PlanNode body, EvalContext ctx) {
        Set<Long> inputs = PlanInputs.objectIds(body);
        if (inputs.isEmpty()) return new PeekPlan.Constant(body);
        if (FusedMfp.base(body) instanceof PlanNode.Get g) {
            List<CollectionReader> readers = readersOf(g.objectId());
            if (!readers.isEmpty()) {
                for (CollectionReader r : readers) {
                    Optional<List<Row>> keys = LookupKeys.match(body, r.key(), ctx);
                    if (keys.isPresent()) return new PeekPlan.FastPathLookup(body, r, keys.get());
                }
                return new PeekPlan.FastPathWalk(body, readers.get(0));
            }
        }
        Map<Long, CollectionReader> imports = new LinkedHashMap<>();
        Set<Long> tables = new LinkedHashSet<>();
        Set<Long> system = new LinkedHashSet<>();
        for (long id : inputs) {
            List<CollectionReader> readers = readersOf(id);
            if (!readers.isEmpty()) imports.put(id, readers.get(0));
            else if (SystemRelations.isSystem(id)) system.add(id);
            else if (isTable.test(id)) tables.add(id);
            else throw new SqlException(SqlState.UNDEFINED_TABLE,
                    "relation with id u" + id + " was dropped while the statement was planned");
        }
        return new PeekPlan.PeekDataflow(body, imports, tables, system);
    }

    /** The exports holding {@code collectionId}, preferred first. */
    /** A loop, not a stream: this runs for every read, and almost never finds one. */
    private static boolean anyHoldsErrors(List<CollectionReader> readers) {
        for (CollectionReader r : readers) if (r.holdsErrors()) return true;
        return false;
    }

    private List<CollectionReader> readersOf(long collectionId) {
        if (SystemRelations.isSystem(collectionId)) return List.of();
        if (tablesDirectly && isTable.test(collectionId)) return List.of();
        List<CollectionReader> held = compute.readers(collectionId);
        // An index of a table whose key failed to evaluate on some row is not needed to
        // read the table: skip it (with none left the table is read from its own
        // snapshot), so that the error fails reads through that index only, not every
        // read of the table. Other collections' errors are their rows' errors: kept.
        if (isTable.test(collectionId) && anyHoldsErrors(held)) {
            held = held.stream().filter(r -> !r.holdsErrors()).toList();
        }
        if (held.size() <= 1) return held; // the common case: nothing to prefer
        List<CollectionReader> readers = new ArrayList<>(held);
        readers.sort(Comparator.comparing((CollectionReader r) -> r.upper() == Long.MIN_VALUE)
                .thenComparingLong(CollectionReader::exportId));
        return readers;
    }
}
