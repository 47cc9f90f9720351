package io.stillwater.engine.sql.planner;

import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * The engine's plans of DML and queries, shared by every session: planned statements by
 * {@link Key} (the statement's text, exact or with literals lifted by {@link
 * LiteralLifter}, the client's parameter types and the session's cluster, whose indexes
 * the plan may use), each valid for one catalog.
 *
 * <p>Invalidation: an entry remembers the catalog it was planned against (the immutable
 * {@code Catalog} the coordinator publishes; every DDL publishes a new one, so identity is
 * the catalog version). A lookup with any other catalog is a miss (counted as an
 * invalidation) and the caller re-plans and replaces the entry; a plan made on an old
 * catalog is never returned for a newer one.
 *
 * <p>Bounds: at most {@code maxEntries} entries (read at every insert: the system
 * parameter {@code plan_cache_max_entries}; about, between two evictions); when an insert
 * passes the bound, one thread evicts the least recently used eighth. Others never wait
 * for it (the eviction lock is only tried). A bound of 0 turns the cache off.
 *
 * <p>Thread-safety: a {@link ConcurrentHashMap} with no lock on lookups or inserts; the
 * values are immutable {@link Statement}s; counters are {@link LongAdder}s.
 */
public final class PlanCache {
    /**
     * What a plan depends on besides the catalog: the text planned ({@code lifted}: the
     * text with {@code $n} for literals), the client's parameter type hints (nulls kept)
     * and the cluster whose indexes the plan may use.
     */
    public record Key(String text, boolean lifted, List<SqlType> paramHints, String cluster) {}

    /**
     * A cached plan: {@code statement} planned against {@code catalog}; null {@code
     * statement} records that the lifted text cannot be planned as a reusable plan (so
     * the statement is planned with its literals in place without trying again).
     */
    private static final class Entry {
        final Object catalog;
        final PlannedStatement statement;
        volatile long lastUsed;

        Entry(Object catalog, PlannedStatement statement, long now) {
            this.catalog = catalog;
            this.statement = statement;
            this.lastUsed = now;
        }
    }

    /** A lookup's outcome: {@code found} false on a miss; a found null statement is a remembered refusal. */
    public record Lookup(boolean found, PlannedStatement statement) {
        static final Lookup MISS = new Lookup(false, null);
    }

    /**
     * Counters since the engine opened, and the entries now: statements whose plan was
     * found by exact text ({@code hits}) or with lifted literals ({@code liftedHits}) and
     * statements planned ({@code misses}); {@code invalidations} are entries found stale
     * (planned on an older catalog), {@code evictions} those dropped by the bound.
     */
    public record Stats(long entries, long hits, long liftedHits, long misses, long invalidations, long evictions) {}

    private final IntSupplier maxEntries;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
    /** Logical clock for LRU order: bumped by every hit and insert. */
    private final AtomicLong clock = new AtomicLong();
    private final ReentrantLock evicting = new ReentrantLock();
    private final LongAdder hits = new LongAdder();
    private final LongAdder liftedHits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder invalidations = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    /** @param maxEntries the bound now (0: off), read at every insert */
    public PlanCache(IntSupplier maxEntries) { this.maxEntries = maxEntries; }

    /** Whether plans are cached now; turning the cache off drops its entries. */
    public boolean enabled() {
        if (maxEntries.getAsInt() > 0) return true;
        if (!entries.isEmpty()) entries.clear();
        return false;
    }

    /** The plan of {@code key} made against {@code catalog} (compared by identity), if cached. */
    public Lookup get(Key key, Object catalog) {
        Entry e = entries.get(key);
        if (e == null) return Lookup.MISS;
        if (e.catalog != catalog) {
            invalidations.increment();
            entries.remove(key, e);
            return Lookup.MISS;
        }
        e.lastUsed = clock.incrementAndGet();
        return new Lookup(true, e.statement);
    }

    /** How a statement's plan was found, for {@link #stats}. */
    public enum Outcome { HIT, LIFTED_HIT, MISS }

    /** Counts one statement planned with {@code outcome}. */
    public void count(Outcome outcome) {
        switch (outcome) {
            case HIT -> hits.increment();
            case LIFTED_HIT -> liftedHits.increment();
            case MISS -> misses.increment();
        }
    }

    /** Caches {@code statement} (null: a refusal, see {@link Entry}) for {@code key} on {@code catalog}. */
    public void put(Key key, Object catalog, PlannedStatement statement) {
        entries.put(key, new Entry(catalog, statement, clock.incrementAndGet()));
        if (entries.size() > maxEntries.getAsInt()) evict();
    }

    /** Removes the least recently used eighth of the entries, unless another thread is doing it. */
    private void evict() {
        if (!evicting.tryLock()) return;
        try {
            int max = maxEntries.getAsInt();
            int excess = entries.size() - max;
            if (excess <= 0) return;
            int n = Math.max(excess, max / 8);
            List<Map.Entry<Key, Entry>> all = new ArrayList<>(entries.entrySet());
            all.sort(Comparator.comparingLong(m -> m.getValue().lastUsed));
            for (Map.Entry<Key, Entry> m : all.subList(0, Math.min(n, all.size()))) {
                if (entries.remove(m.getKey(), m.getValue())) evictions.increment();
            }
        } finally {
            evicting.unlock();
        }
    }

    public Stats stats() {
        return new Stats(entries.size(), hits.sum(), liftedHits.sum(), misses.sum(), invalidations.sum(),
                evictions.sum());
    }

    /** The hints as a key part: an unmodifiable copy that keeps nulls. */
    static List<SqlType> hintsKey(List<SqlType> hints) {
        return hints.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(hints));
    }
}
