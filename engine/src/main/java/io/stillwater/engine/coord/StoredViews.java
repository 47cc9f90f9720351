package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The materialized views' contents loaded from the checkpoint at restart, which answer
 * reads of a view until its dataflow has hydrated (Materialize persists a view's output
 * for the same reason: reads need not wait for the recomputation).
 *
 * <p><b>When stored contents may answer a read at t.</b> They are the view's rows at the
 * checkpoint's time T. They are its rows at any {@code t >= T} as long as no write in
 * {@code (T, t]} touched any table the view reads, directly or through views and other
 * materialized views. So each stored view keeps its input tables and {@code invalidFrom}:
 * the time of the first write to one of them after T (∞ while there is none). Its upper
 * ({@link Stored#upper}) is {@code min(applied time + 1, invalidFrom)}: every t below it
 * is answerable, and once a t is answerable it stays so (a write arrives at a time greater
 * than the applied time, and it is recorded here before the oracle moves to it).
 *
 * <p><b>Threads.</b> {@link #load} runs on the opening thread during recovery and
 * {@link #tablesWritten} under the pipeline's apply lock, before the timestamp oracle
 * advances past the write; session threads read concurrently ({@link #readers}), so the
 * map is concurrent and {@code invalidFrom} volatile. An entry is forgotten once its
 * view's dataflow has hydrated: from then on the dataflow answers (same rows at the same
 * times) and the stored rows are garbage.
 */
final class StoredViews {
    private static final Logger LOG = LoggerFactory.getLogger(StoredViews.class);

    /** One view's stored contents at {@code time}, answering reads while no input was written since. */
    static final class Stored {
        final MaterializedViewDef view;
        final long time;
        final Set<Long> inputTables;
        /** The rows at {@code time} with their multiplicities; never changed after load. */
        final Map<Row, Long> rows;
        final List<Expr> key;
        private final LongSupplier appliedTime;
        private volatile long invalidFrom = Long.MAX_VALUE;

        Stored(MaterializedViewDef view, long time, Set<Long> inputTables, Map<Row, Long> rows, LongSupplier appliedTime) {
            this.view = view;
            this.time = time;
            this.inputTables = Set.copyOf(inputTables);
            this.rows = rows;
            this.appliedTime = appliedTime;
            List<Expr> columns = new ArrayList<>();
            for (int i = 0; i < view.columnTypes().size(); i++) columns.add(new Expr.Column(i, view.columnTypes().get(i)));
            this.key = List.copyOf(columns);
        }

        /** Every read time below this (and not before {@link #time}) is answered by the stored rows. */
        long upper() {
            long applied = appliedTime.getAsLong(); // first: a write at or before it set invalidFrom already
            return Math.min(applied + 1, invalidFrom);
        }

        boolean answers(long t) { return t >= time && t < upper(); }

        /** Whether a write to an input arrived after {@link #time} (the stored rows answer no newer read). */
        boolean stale() { return invalidFrom != Long.MAX_VALUE; }
    }

    private final Map<Long, Stored> byView = new ConcurrentHashMap<>();
    private final LongSupplier appliedTime;

    /** @param appliedTime the time of the last applied write: what the newest read sees */
    StoredViews(LongSupplier appliedTime) {
        this.appliedTime = appliedTime;
    }

    /**
     * Recovery: stores {@code contents} (the view's rows at {@code time}, from the
     * checkpoint) for view {@code viewId} of {@code catalog}. A view the catalog no longer
     * has, or whose inputs cannot all be traced to tables, is left out (its dataflow
     * answers once hydrated). Opening thread, before the log after the checkpoint replays.
     */
    void load(Catalog catalog, long viewId, long time, Changes contents) {
        Optional<MaterializedViewDef> view = catalog.materializedViews().stream().filter(m -> m.id() == viewId).findFirst();
        if (view.isEmpty()) return;
        Optional<Set<Long>> inputs = inputTables(catalog, view.get().dependsOn(), new HashSet<>());
        if (inputs.isEmpty()) {
            LOG.info("not serving the stored contents of {}: an input is not a table, view or materialized view",
                    view.get().name());
            return;
        }
        Map<Row, Long> rows = new HashMap<>(Math.max(16, contents.size() * 2));
        for (int i = 0; i < contents.size(); i++) rows.merge(contents.row(i), contents.diff(i), Long::sum);
        rows.values().removeIf(d -> d == 0);
        byView.put(viewId, new Stored(view.get(), time, inputs.get(), Map.copyOf(rows), appliedTime));
    }

    /**
     * The tables behind {@code names}, through views and materialized views; empty when
     * some name is none of those (a built-in relation: its changes are not tracked here).
     */
    private static Optional<Set<Long>> inputTables(Catalog catalog, Collection<String> names, Set<String> seen) {
        Set<Long> out = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) continue;
            Optional<ObjectKind> kind = catalog.kindOf(name);
            if (kind.isEmpty()) return Optional.empty();
            Optional<Set<Long>> more = switch (kind.get()) {
                case TABLE -> Optional.of(Set.of(catalog.idOf(name)));
                case VIEW -> inputTables(catalog, catalog.view(name).orElseThrow().dependsOn(), seen);
                case MATERIALIZED_VIEW -> inputTables(catalog, catalog.materializedView(name).orElseThrow().dependsOn(), seen);
                default -> Optional.empty();
            };
            if (more.isEmpty()) return Optional.empty();
            out.addAll(more.get());
        }
        return Optional.of(out);
    }

    /**
     * A write at {@code time} changed {@code tables}: stored views reading any of them no
     * longer answer reads at {@code time} or later. Apply lock (also while the log
     * replays), before the oracle moves to {@code time}.
     */
    void tablesWritten(Set<Long> tables, long time) {
        if (byView.isEmpty()) return;
        for (Stored s : byView.values()) {
            if (s.stale() || time <= s.time) continue;
            for (long id : tables) {
                if (s.inputTables.contains(id)) {
                    s.invalidFrom = time;
                    break;
                }
            }
        }
    }

    /**
     * {@code readers} (of collection {@code collectionId}, from a replica) with the
     * stored contents added where they help: the view's export reader is replaced by one
     * that answers from the stored rows too ({@link StoredViewReader}); without one (its
     * dataflow not created yet) the stored rows alone answer. A view whose dataflow has
     * hydrated is forgotten and its own reader returned. Any thread.
     */
    List<CollectionReader> readers(long collectionId, List<CollectionReader> readers) {
        Stored s = byView.get(collectionId);
        if (s == null) return readers;
        List<CollectionReader> out = new ArrayList<>(readers.size() + 1);
        CollectionReader live = null;
        for (CollectionReader r : readers) {
            if (r.exportId() == collectionId) live = r;
            else out.add(r);
        }
        out.add(0, reader(s, live));
        return out;
    }

    /** The reader of export {@code exportId}: {@code live} with the stored contents, as for {@link #readers}. */
    Optional<CollectionReader> reader(long exportId, Optional<CollectionReader> live) {
        Stored s = byView.get(exportId);
        if (s == null) return live;
        return Optional.of(reader(s, live.orElse(null)));
    }

    private CollectionReader reader(Stored s, CollectionReader live) {
        if (live != null && live.upper() != Long.MIN_VALUE) {
            // Hydrated: the dataflow answers every read from now on.
            if (byView.remove(s.view.id(), s)) {
                LOG.info("materialized view {} hydrated; its stored contents from the checkpoint are dropped", s.view.name());
            }
            return live;
        }
        return new StoredViewReader(s, live);
    }

    /**
     * Forgets the stored contents of views {@code catalog} no longer has (dropped by the
     * log after the checkpoint). Opening thread, after replay.
     */
    void retainIn(Catalog catalog) {
        Set<Long> live = new HashSet<>();
        for (MaterializedViewDef m : catalog.materializedViews()) live.add(m.id());
        byView.keySet().retainAll(live);
    }

    /** How many views answer from stored contents now (introspection, tests). */
    int size() { return byView.size(); }

    /** The stored contents of view {@code viewId}, if any (tests). */
    Optional<Stored> stored(long viewId) { return Optional.ofNullable(byView.get(viewId)); }
}
