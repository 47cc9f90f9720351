package io.stillwater.engine.arrange;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A trace: the batches of one arrangement, merged geometrically and incrementally
 * (differential dataflow's {@code spine_fueled.rs}).
 *
 * <p><b>Threads.</b> A spine is owned by ONE writer thread: {@link #insert},
 * {@link #advanceUpper}, {@link #exert} and {@link #setLogicalCompaction} must only be
 * called from it, and the level structure is touched by no one else. Other threads read
 * through {@link #snapshot()} (lock-free: an {@link AtomicReference} read) and take
 * {@link ReadHold}s (thread-safe). The writer publishes a new {@link TraceSnapshot} after
 * every mutation, so readers never block merges and merges never block readers.
 *
 * <p><b>Levels.</b> Level {@code i} holds at most two batches of about {@code 2^i} updates
 * (a batch is accounted at its level's size even if compaction shrinks it); two batches at
 * one level are being merged. Batches at higher levels are older; the batches, read from
 * the highest level down, cover contiguous time intervals. Merge work is paid for by
 * inserts: a batch of {@code n} updates supplies about {@code 4n} fuel to every merge in
 * progress, enough for merges to finish before their level is needed again, so the number
 * of batches stays {@code O(log n)} while each call does bounded merge work.
 *
 * <p><b>Compaction.</b> {@link #setLogicalCompaction} requests a {@code since}; the
 * effective since is {@code min(requested, least held time)}, only grows, and is applied
 * by merges as they begin (times below it advance to it and equal updates consolidate).
 */
public final class Spine {
    /**
     * A batch introduced at level {@code i} (about {@code 2^i..2^(i+1)} updates) supplies
     * {@code FUEL_UNIT << i} fuel to every merge in progress: about four per update, the
     * factor DD's spine_fueled.rs argues is enough.
     */
    private static final long FUEL_UNIT = 8;

    private sealed interface Slot permits Vacant, Single, Merging {}

    private enum Vacant implements Slot { INSTANCE }

    /** One batch; {@code batch == null} is a structurally empty batch (virtual updates from {@link #exert}). */
    private record Single(Batch batch) implements Slot {
        int len() { return batch == null ? 0 : batch.size(); }
    }

    /** Two batches being merged, older then newer; either may be structurally empty. */
    private static final class Merging implements Slot {
        final Batch older;
        final Batch newer;
        final Merger merger; // null when an input is structurally empty: complete at once

        Merging(Batch older, Batch newer, long compactTo) {
            this.older = older;
            this.newer = newer;
            this.merger = older != null && newer != null ? new Merger(older, newer, compactTo) : null;
        }

        boolean isComplete() { return merger == null || merger.isDone(); }

        int len() { return (older == null ? 0 : older.size()) + (newer == null ? 0 : newer.size()); }

        Batch complete(Spine spine) {
            if (merger == null) return older != null ? older : newer;
            // Forced completion, unbounded; the fuel discipline makes it rare.
            long left = merger.work(Long.MAX_VALUE);
            spine.fuelSpent += Long.MAX_VALUE - left;
            return merger.result();
        }
    }

    // ---- writer-owned state ----
    private final ArrayList<Slot> levels = new ArrayList<>();
    private long upper;
    /** Upper of the newest stored batch; below {@code upper} after empty steps. */
    private long storedUpper;
    private long requestedSince;
    /** The effective since as last read from {@link #holds}; merges begin with it. */
    private long compactionSince;
    private long fuelSpent;

    // ---- shared state ----
    private final ReadHolds holds;
    private final AtomicReference<TraceSnapshot> published;
    /** Readers waiting for the upper to pass a time, by time. Guarded by itself. */
    private final TreeMap<Long, List<CompletableFuture<TraceSnapshot>>> waiters = new TreeMap<>();
    private volatile boolean anyWaiters;

    /** An empty spine whose contents are final below {@code lower} (and empty there). */
    public Spine(long lower) {
        this.upper = lower;
        this.storedUpper = lower;
        this.requestedSince = lower;
        this.compactionSince = lower;
        this.holds = new ReadHolds(lower);
        this.published = new AtomicReference<>(new TraceSnapshot(new Batch[0], lower, lower));
    }

    // ---------------------------------------------------------------- readers (any thread)

    /** The latest published snapshot. Lock-free; callable from any thread. */
    public TraceSnapshot snapshot() { return published.get(); }

    /** The published upper: all updates at times below it are final. */
    public long upper() { return published.get().upper(); }

    /** How many read holds are open on this spine (introspection and tests). Any thread. */
    public int holdCount() { return holds.holdCount(); }

    /** The effective since: the spine may read inexactly below it. Any thread. */
    public long since() { return holds.since(); }

    /**
     * Holds {@code t} so logical compaction does not pass it.
     *
     * @throws IllegalStateException if the spine was already compacted beyond {@code t}
     */
    public ReadHold acquireHold(long t) {
        ReadHold h = holds.tryAcquire(t);
        if (h == null) {
            throw new IllegalStateException("cannot hold time " + t + ": the trace is compacted through " + holds.since());
        }
        return h;
    }

    /** Like {@link #acquireHold}, empty when {@code t} is already compacted away. */
    public Optional<ReadHold> tryAcquireHold(long t) { return Optional.ofNullable(holds.tryAcquire(t)); }

    /** A hold at the current effective since (the oldest readable time), atomically. */
    public ReadHold acquireHoldAtSince() { return holds.acquireAtSince(); }

    /**
     * Completes with the first published snapshot whose upper is beyond {@code t} (at once
     * if the current one is): how a read at {@code t} waits for the data to be final. The
     * future may complete on the writer thread, so continue with {@code *Async} methods or
     * {@code join()} from the reader. Hold {@code t} first if the read must not be
     * compacted away meanwhile. Any thread.
     */
    public CompletableFuture<TraceSnapshot> readableAt(long t) {
        TraceSnapshot now = published.get();
        if (t < now.upper()) return CompletableFuture.completedFuture(now);
        CompletableFuture<TraceSnapshot> f = new CompletableFuture<>();
        synchronized (waiters) {
            waiters.computeIfAbsent(t, k -> new ArrayList<>(1)).add(f);
            anyWaiters = true;
        }
        // The writer publishes before it looks at waiters: re-check so no wake-up is lost.
        now = published.get();
        if (t < now.upper()) f.complete(now);
        return f;
    }

    // ---------------------------------------------------------------- writer thread only

    /**
     * Appends a batch; {@code batch.lower()} must equal {@link #upper()}. Pays merge work
     * proportional to the batch's size. Writer thread only.
     */
    public void insert(Batch batch) {
        if (batch.lower() != upper) {
            throw new IllegalArgumentException("batch lower " + batch.lower() + " is not the spine upper " + upper);
        }
        refreshSince();
        if (batch.isEmpty()) {
            // Like DD fusing empty batches: an empty step only moves the upper.
            upper = batch.upper();
        } else {
            if (storedUpper < batch.lower()) batch = batch.withBounds(storedUpper, batch.upper()); // zero-copy
            upper = batch.upper();
            storedUpper = upper;
            introduceBatch(batch, levelFor(batch.size()));
        }
        publish();
    }

    /** Sorts {@code updates} (all at times in {@code [upper(), newUpper)}) into a batch and inserts it. */
    public void insert(List<KeyValUpdate> updates, long newUpper) {
        insert(Batch.of(updates, upper, newUpper));
    }

    /** An empty step: no updates at times in {@code [upper(), newUpper)}. Writer thread only. */
    public void advanceUpper(long newUpper) {
        if (newUpper < upper) {
            throw new IllegalArgumentException("upper may not go back from " + upper + " to " + newUpper);
        }
        refreshSince();
        upper = newUpper;
        publish();
    }

    /**
     * Requests logical compaction up to {@code since} (a request below an earlier one is
     * ignored). Takes effect up to the least held time; merges apply it. Writer thread only.
     */
    public void setLogicalCompaction(long since) {
        if (since > requestedSince) requestedSince = since;
        refreshSince();
        publish();
    }

    /**
     * Idle merging: spends up to about {@code fuel} updates of work on merges in progress,
     * or starts merges (by introducing a virtual empty batch) while the spine holds more
     * than one non-empty batch. Writer thread only. Like DD, a spine already reduced to
     * one batch is not rewritten for compaction alone: its times advance when it next
     * merges (reads are exact either way).
     */
    public void exert(long fuel) {
        refreshSince();
        tidyLayers();
        if (!isReduced()) {
            if (levels.stream().anyMatch(s -> s instanceof Merging)) {
                applyFuel(fuel);
            } else {
                int level = fuel <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(fuel - 1);
                introduceBatch(null, level);
            }
        }
        publish();
    }

    /** True when no merge is in progress and at most one batch is non-empty. Writer thread. */
    public boolean isReduced() {
        int nonEmpty = 0;
        for (Slot s : levels) {
            if (s instanceof Merging) return false;
            if (s instanceof Single single && single.len() > 0 && ++nonEmpty > 1) return false;
        }
        return true;
    }

    /** Input updates consumed by merges so far (a measure of total merge work). */
    long fuelSpent() { return fuelSpent; }

    /** Number of levels (for structural tests). */
    int levelCount() { return levels.size(); }

    // ---------------------------------------------------------------- internals

    private void refreshSince() {
        compactionSince = holds.advance(requestedSince);
    }

    private void publish() {
        List<Batch> out = new ArrayList<>();
        for (int i = levels.size() - 1; i >= 0; i--) {
            switch (levels.get(i)) {
                case Vacant v -> { }
                case Single s -> addIfNonEmpty(out, s.batch());
                case Merging m -> {
                    addIfNonEmpty(out, m.older);
                    addIfNonEmpty(out, m.newer);
                }
            }
        }
        TraceSnapshot snap = new TraceSnapshot(out.toArray(new Batch[0]), upper, compactionSince);
        published.set(snap);
        if (anyWaiters) wakeReaders(snap);
    }

    private void wakeReaders(TraceSnapshot snap) {
        List<CompletableFuture<TraceSnapshot>> ready = new ArrayList<>();
        synchronized (waiters) {
            Map<Long, List<CompletableFuture<TraceSnapshot>>> done = waiters.headMap(snap.upper());
            done.values().forEach(ready::addAll);
            done.clear();
            anyWaiters = !waiters.isEmpty();
        }
        for (CompletableFuture<TraceSnapshot> f : ready) f.complete(snap); // outside the lock
    }

    private static void addIfNonEmpty(List<Batch> out, Batch b) {
        if (b != null && !b.isEmpty()) out.add(b);
    }

    /** The level for a batch of {@code n} updates: {@code max(log2(nextPow2(n)), 1) - 1}. */
    static int levelFor(long n) {
        int log = n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1);
        return Math.max(log, 1) - 1;
    }

    private void introduceBatch(Batch batch, int index) {
        // Step 1: pay for the updates: fuel every merge in progress, so that each finishes
        // before its level must accept another batch.
        applyFuel(FUEL_UNIT << Math.min(index, 56));
        // Step 2: make room: everything below `index` becomes one batch at `index` or above.
        rollUp(index);
        // Step 3: the new batch, newest of all, goes in at `index`.
        insertAt(batch, index);
        // Step 4: let a shrunken largest batch sink, so it merges again with smaller ones.
        tidyLayers();
    }

    private void applyFuel(long fuel) {
        int n = levels.size();
        for (int i = 0; i < n; i++) {
            if (levels.get(i) instanceof Merging m) {
                if (m.merger != null && !m.merger.isDone()) {
                    long left = m.merger.work(fuel); // each level gets the full fuel
                    fuelSpent += fuel - left;
                }
                if (m.isComplete()) {
                    Batch done = completeAt(i);
                    insertAt(done, i + 1);
                }
            }
        }
    }

    private void rollUp(int index) {
        while (levels.size() <= index) levels.add(Vacant.INSTANCE);
        boolean any = false;
        for (int i = 0; i < index; i++) any |= levels.get(i) != Vacant.INSTANCE;
        if (!any) return;
        Batch merged = null;
        for (int i = 0; i < index; i++) {
            insertAt(merged, i);
            merged = completeAt(i);
        }
        insertAt(merged, index);
        if (levels.get(index) instanceof Merging) {
            Batch done = completeAt(index);
            insertAt(done, index + 1);
        }
    }

    private void insertAt(Batch batch, int index) {
        while (levels.size() <= index) levels.add(Vacant.INSTANCE);
        switch (levels.get(index)) {
            case Vacant v -> levels.set(index, new Single(batch));
            case Single s -> levels.set(index, new Merging(s.batch(), batch, compactionSince));
            case Merging m -> {
                // The fuel discipline should make this unreachable (DD panics here). Stay
                // correct anyway: finish the merge and push it up before taking the batch.
                Batch done = completeAt(index);
                insertAt(done, index + 1);
                levels.set(index, new Single(batch));
            }
        }
    }

    private Batch completeAt(int index) {
        Slot s = levels.get(index);
        levels.set(index, Vacant.INSTANCE);
        return switch (s) {
            case Vacant v -> null;
            case Single single -> single.batch();
            case Merging m -> m.complete(this);
        };
    }

    /**
     * If the largest level holds a single batch that has become small (compaction), let it
     * move down so it merges again with batches of its real size (DD's {@code tidy_layers}).
     */
    private void tidyLayers() {
        if (levels.isEmpty()) return;
        int length = levels.size();
        if (!(levels.get(length - 1) instanceof Single top)) return;
        int appropriate = levelFor(top.len());
        while (appropriate < length - 1) {
            Slot below = levels.get(length - 2);
            if (below == Vacant.INSTANCE || (below instanceof Single s && s.batch() == null)) {
                levels.remove(length - 2);
                length = levels.size();
            } else if (below instanceof Single s) {
                // Move down only if the levels below cannot overrun the new merge.
                long smaller = 0;
                for (int i = 0; i < length - 2; i++) {
                    Slot x = levels.get(i);
                    if (x instanceof Single) smaller += 1L << i;
                    else if (x instanceof Merging) smaller += 2L << i;
                }
                if (smaller <= (1L << length) / 8) {
                    levels.remove(length - 2);
                    insertAt(s.batch(), length - 2);
                }
                return;
            } else {
                return; // a merge in progress
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Spine[upper=").append(upper).append(", since=").append(compactionSince);
        for (int i = 0; i < levels.size(); i++) {
            Slot s = levels.get(i);
            sb.append(", L").append(i).append('=');
            switch (s) {
                case Vacant v -> sb.append('-');
                case Single x -> sb.append(x.len());
                case Merging m -> sb.append(m.older == null ? 0 : m.older.size()).append('+')
                        .append(m.newer == null ? 0 : m.newer.size());
            }
        }
        return sb.append(']').toString();
    }
}
