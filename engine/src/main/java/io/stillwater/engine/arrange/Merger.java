package io.stillwater.engine.arrange;

/**
 * An incremental merge of two batches into one, advancing times below the compaction
 * frontier and consolidating (differential dataflow's {@code Merger}).
 *
 * <p>Work is done in steps of one {@code (key, val)} group; {@link #work} stops once the
 * fuel it was given is spent, so a merge of any size is spread over many calls. Fuel is
 * counted in input updates consumed. Owned by the spine's writer thread; the inputs are
 * immutable and stay readable by others while the merge runs.
 */
final class Merger {
    private final Batch a; // older
    private final Batch b; // newer
    private final long lower;
    private final long upper;
    /** Times below this are advanced to it; {@code Long.MIN_VALUE} when nothing is. */
    private final long advanceTo;
    private final BatchBuilder out;

    private int ka; // key position in a
    private int va; // value position in a (global index into a.vals)
    private int kb;
    private int vb;
    private int keyCmp;
    private boolean keyCmpStale = true;
    // Key positions (in a, in b) equal to the key of the last group started; -1 if none.
    // They tell the builder when the key changes without comparing rows again.
    private int lastKeyA = -1;
    private int lastKeyB = -1;
    private Batch result;

    /**
     * @param compactTo the logical compaction frontier when the merge starts: times below it
     *     may be advanced to it. Clamped to {@code upper - 1} so every time stays inside the
     *     merged batch's description (a trace is never read at or beyond its upper anyway).
     */
    Merger(Batch older, Batch newer, long compactTo) {
        this.a = older;
        this.b = newer;
        this.lower = Math.min(older.lower(), newer.lower());
        this.upper = Math.max(older.upper(), newer.upper());
        this.advanceTo = Math.max(lower, Math.min(compactTo, upper - 1));
        this.out = new BatchBuilder(a.keyCount + b.keyCount, a.valCount + b.valCount, a.updateCount + b.updateCount);
    }

    boolean isDone() { return result != null; }

    /** The merged batch; only once {@link #isDone()}. */
    Batch result() {
        if (result == null) throw new IllegalStateException("merge not finished");
        return result;
    }

    /**
     * Merges until {@code fuel} input updates were consumed or the merge is done.
     *
     * @return the fuel left; may be negative when the last step overspent
     */
    long work(long fuel) {
        while (fuel > 0 && result == null) fuel -= step();
        return fuel;
    }

    /** One (key, val) group of output; returns the input updates consumed (at least 1). */
    private int step() {
        boolean aValid = ka < a.keyCount;
        boolean bValid = kb < b.keyCount;
        if (!aValid && !bValid) {
            // An input compacted further than this merge (only if someone merged against a
            // frontier that went backwards) keeps the output from reading exactly below it.
            long since = Math.max(advanceTo, Math.max(compactedSince(a), compactedSince(b)));
            result = out.build(lower, upper, since);
            return 1;
        }
        int c;
        if (!aValid) {
            c = 1;
        } else if (!bValid) {
            c = -1;
        } else {
            if (keyCmpStale) {
                keyCmp = RowColumn.compare(a.keys, ka, b.keys, kb);
                keyCmpStale = false;
            }
            c = keyCmp;
        }
        boolean keysEqual = c == 0;
        if (keysEqual) c = RowColumn.compare(a.vals, va, b.vals, vb);
        int consumed;
        if (c < 0) {
            boolean newKey = ka != lastKeyA;
            lastKeyA = ka;
            lastKeyB = keysEqual ? kb : -1;
            consumed = copyGroup(a, ka, va, newKey);
            stepA();
        } else if (c > 0) {
            boolean newKey = kb != lastKeyB;
            lastKeyB = kb;
            lastKeyA = keysEqual ? ka : -1;
            consumed = copyGroup(b, kb, vb, newKey);
            stepB();
        } else {
            boolean newKey = ka != lastKeyA;
            lastKeyA = ka;
            lastKeyB = kb;
            consumed = mergeGroups(newKey);
            stepA();
            stepB();
        }
        return Math.max(consumed, 1);
    }

    private static long compactedSince(Batch x) {
        return x.since() > x.lower() ? x.since() : Long.MIN_VALUE;
    }

    private void stepA() {
        va++;
        if (va == a.valStart(ka + 1)) {
            ka++;
            keyCmpStale = true;
        }
    }

    private void stepB() {
        vb++;
        if (vb == b.valStart(kb + 1)) {
            kb++;
            keyCmpStale = true;
        }
    }

    private int copyGroup(Batch x, int k, int v, boolean newKey) {
        int from = x.updStart(v);
        int to = x.updStart(v + 1);
        long adv = advanceTo;
        out.startGroup(x.keys, k, x.vals, v, newKey);
        for (int u = from; u < to; u++) out.push(Math.max(x.time(u), adv), x.diff(u));
        out.endGroup();
        return to - from;
    }

    /** Equal (key, val) in both inputs: merge their time lists (both ascending). */
    private int mergeGroups(boolean newKey) {
        int i = a.updStart(va);
        int iEnd = a.updStart(va + 1);
        int j = b.updStart(vb);
        int jEnd = b.updStart(vb + 1);
        int consumed = (iEnd - i) + (jEnd - j);
        long adv = advanceTo;
        out.startGroup(a.keys, ka, a.vals, va, newKey);
        // Advancing is monotone (t -> max(t, adv)), so merged order survives it.
        while (i < iEnd && j < jEnd) {
            if (a.time(i) <= b.time(j)) {
                out.push(Math.max(a.time(i), adv), a.diff(i));
                i++;
            } else {
                out.push(Math.max(b.time(j), adv), b.diff(j));
                j++;
            }
        }
        for (; i < iEnd; i++) out.push(Math.max(a.time(i), adv), a.diff(i));
        for (; j < jEnd; j++) out.push(Math.max(b.time(j), adv), b.diff(j));
        out.endGroup();
        return consumed;
    }
}
