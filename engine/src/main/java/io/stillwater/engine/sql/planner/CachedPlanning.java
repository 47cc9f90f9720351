package io.stillwater.engine.sql.planner;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.RecordingCatalogView;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.plan.Plans;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Planning through the engine's shared {@link PlanCache}: what sessions call to turn a
 * statement into a {@link Statement} without paying Calcite for a statement planned before.
 *
 * <p>Order of attempts, for one statement against the catalog current now:
 * <ol>
 *   <li>the exact text (with the client's parameter types and the session's cluster);</li>
 *   <li>the text with literals lifted ({@link LiteralLifter}; only without client
 *       parameters): the generic plan is planned once per catalog with {@code $n} for the
 *       literals, and each use binds the literals to the types the planner inferred, when
 *       {@link LiftedLiteral#valueAs} says that keeps their meaning;</li>
 *   <li>the statement as written, planned by the session's {@link StatementPlanner} and
 *       cached under its exact text.</li>
 * </ol>
 * A statement bound from a lifted plan for the second time lately (see {@link RecentTexts})
 * is cached under its exact text too, so the same text again costs one lookup (no lexing,
 * lifting or binding), while a stream of ever new literals (pgbench's random keys) does not
 * crowd the cache with texts that never come back.
 * Only SELECT-like queries, INSERT, UPDATE and DELETE are cached: their plans are a pure
 * function of the text, the parameter types and the catalog with the cluster's indexes.
 * Errors are never cached: a statement that fails to plan fails the same way each time.
 *
 * <p>Thread-safe: one instance per engine, called from every session's thread.
 */
public final class CachedPlanning {
    private final PlanCache cache;
    /** Texts bound from lifted plans lately: the second binding of one caches it by its exact text. */
    private final RecentTexts recentlyBound = new RecentTexts(1024);

    public CachedPlanning(PlanCache cache) { this.cache = cache; }

    public PlanCache cache() { return cache; }

    /**
     * Plans {@code sql} for a session on {@code cluster}: {@code catalog} is the
     * coordinator's current catalog (its identity is the cache's version check), and
     * planning uses only the indexes on {@code cluster}.
     */
    public PlannedStatement plan(StatementPlanner planner, String sql, List<SqlType> paramHints, Catalog catalog,
                                 String cluster) {
        if (!cache.enabled()) return planRecorded(planner, sql, paramHints, catalog.withIndexesOn(cluster));
        List<SqlType> hints = PlanCache.hintsKey(paramHints);
        PlanCache.Key exact = new PlanCache.Key(sql, false, hints, cluster);
        PlanCache.Lookup found = cache.get(exact, catalog);
        if (found.found()) {
            cache.count(PlanCache.Outcome.HIT);
            return found.statement();
        }
        if (hints.isEmpty()) {
            Optional<LiteralLifter.LiftedStatement> lifted = LiteralLifter.lift(sql);
            if (lifted.isPresent()) {
                Optional<PlannedStatement> bound = planLifted(planner, lifted.get(), catalog, cluster);
                if (bound.isPresent()) {
                    // A text bound again soon (a loop, a dashboard's refresh) is then one lookup.
                    if (recentlyBound.seenBefore(sql)) cache.put(exact, catalog, bound.get());
                    return bound.get();
                }
            }
        }
        PlannedStatement planned = planRecorded(planner, sql, hints, catalog.withIndexesOn(cluster));
        if (isCacheable(planned.statement())) {
            cache.count(PlanCache.Outcome.MISS); // utility statements are not counted: they never use the cache
            cache.put(exact, catalog, planned);
        }
        return planned;
    }

    /**
     * {@code sql} as {@link #plan} would give it, but only from the cache: the exact text, or
     * its lifted form's generic plan bound to the literals; empty when that would take the
     * planner (a miss, or literals that do not bind). Never plans, so it costs microseconds:
     * the wire server's event loop calls it through the session.
     */
    public Optional<PlannedStatement> planCached(String sql, List<SqlType> paramHints, Catalog catalog, String cluster) {
        if (!cache.enabled()) return Optional.empty();
        List<SqlType> hints = PlanCache.hintsKey(paramHints);
        PlanCache.Lookup found = cache.get(new PlanCache.Key(sql, false, hints, cluster), catalog);
        if (found.found()) {
            cache.count(PlanCache.Outcome.HIT);
            return Optional.of(found.statement());
        }
        if (!hints.isEmpty()) return Optional.empty();
        Optional<LiteralLifter.LiftedStatement> lifted = LiteralLifter.lift(sql);
        if (lifted.isEmpty()) return Optional.empty();
        PlanCache.Lookup generic = cache.get(new PlanCache.Key(lifted.get().text(), true, List.of(), cluster), catalog);
        if (!generic.found() || generic.statement() == null) return Optional.empty();
        Optional<Statement> bound = bind(generic.statement().statement(), lifted.get().literals());
        if (bound.isPresent()) cache.count(PlanCache.Outcome.LIFTED_HIT);
        return bound.map(b -> new PlannedStatement(b, generic.statement().references()));
    }

    /** {@code sql} planned against {@code visible}, recording the relations it names. */
    private static PlannedStatement planRecorded(StatementPlanner planner, String sql, List<SqlType> hints,
                                                 CatalogView visible) {
        RecordingCatalogView recording = new RecordingCatalogView(visible);
        Statement s = planner.plan(sql, hints, recording);
        return new PlannedStatement(s, recording.references());
    }

    /** The lifted statement's generic plan (cached), bound to its literals; empty to plan it as written. */
    private Optional<PlannedStatement> planLifted(StatementPlanner planner, LiteralLifter.LiftedStatement lifted,
                                           Catalog catalog, String cluster) {
        PlanCache.Key key = new PlanCache.Key(lifted.text(), true, List.of(), cluster);
        PlanCache.Lookup found = cache.get(key, catalog);
        PlannedStatement generic;
        boolean hit = found.found();
        if (hit) {
            generic = found.statement();
        } else {
            generic = genericPlan(planner, lifted, catalog.withIndexesOn(cluster));
            cache.put(key, catalog, generic);
        }
        if (generic == null) return Optional.empty();
        Optional<Statement> bound = bind(generic.statement(), lifted.literals());
        if (bound.isPresent()) cache.count(hit ? PlanCache.Outcome.LIFTED_HIT : PlanCache.Outcome.MISS);
        return bound.map(b -> new PlannedStatement(b, generic.references()));
    }

    /**
     * The lifted text planned with a parameter per literal, or null when it does not plan
     * to a cacheable statement with exactly those parameters (its errors are not the
     * statement's: the statement as written is planned next and reports its own).
     */
    private static PlannedStatement genericPlan(StatementPlanner planner, LiteralLifter.LiftedStatement lifted,
                                                Catalog visible) {
        try {
            PlannedStatement p = planRecorded(planner, lifted.text(), List.of(), visible);
            Statement s = p.statement();
            return isCacheable(s) && s.paramTypes().size() == lifted.literals().size() ? p : null;
        } catch (SqlException e) {
            return null;
        }
    }

    /** {@code generic} with each literal bound to its parameter's inferred type, if every one keeps its meaning. */
    static Optional<Statement> bind(Statement generic, List<LiftedLiteral> literals) {
        List<SqlType> types = generic.paramTypes();
        List<Object> values = new ArrayList<>(literals.size());
        for (int i = 0; i < literals.size(); i++) {
            Optional<Object> v = literals.get(i).valueAs(types.get(i));
            if (v.isEmpty()) return Optional.empty();
            values.add(v.get());
        }
        return Optional.of(switch (generic) {
            case Statement.Query q -> new Statement.Query(Plans.bindParams(q.plan(), values), List.of());
            case Statement.Insert ins -> new Statement.Insert(ins.table(), ins.targetColumns(),
                    Plans.bindParams(ins.source(), values), List.of());
            case Statement.Update upd -> new Statement.Update(upd.table(), upd.setColumns(),
                    Plans.bindParams(upd.rows(), values), List.of());
            case Statement.Delete del -> new Statement.Delete(del.table(), Plans.bindParams(del.rows(), values),
                    List.of());
            default -> throw new IllegalStateException("not a cacheable statement: " + generic.commandVerb());
        });
    }

    /** Statements whose plan depends only on the text, the parameter types and the catalog. */
    static boolean isCacheable(Statement s) {
        return s instanceof Statement.Query || s instanceof Statement.Insert || s instanceof Statement.Update
                || s instanceof Statement.Delete;
    }
}
