package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable set of updates, sorted by {@code (key, val, time)} and consolidated: no
 * zero diff and no two updates with the same {@code (key, val, time)}.
 *
 * <p>Layout is columnar, like differential dataflow's {@code OrdValBatch} (a trie in CSR
 * form): key {@code k} owns values {@code valStart(k) .. valStart(k+1)}, value {@code v} owns
 * updates {@code updStart(v) .. updStart(v+1)}, update {@code u} is {@code (time(u),
 * diff(u))}. No per-update objects. The keys and values are {@link RowColumn}s: primitive
 * columns when every row fits (no object per row or datum), no storage at all for all-empty
 * values, boxed rows otherwise. The other columns drop out when they carry no information,
 * as in a compacted table's batch (every row once, at one time, with diff 1):
 * {@code keyOffs == null} means key {@code k} owns exactly value {@code k}, {@code valOffs ==
 * null} that value {@code v} owns exactly update {@code v}, {@code times == null} that every
 * update is at {@code uniformTime}, {@code diffs == null} that every diff is {@code
 * uniformDiff}. Arrays may be longer than the counts; only the counted prefix is meaningful.
 * Nothing is ever written to them after construction, so a batch can be shared with any
 * thread.
 *
 * <p>Description: every time {@code t} satisfies {@code lower <= t < upper}. Times below
 * {@code since} were advanced to {@code since} by logical compaction, so the batch's
 * accumulations are exact at every time {@code >= since} (for a batch that was never
 * compacted, {@code since == lower}).
 */
public final class Batch {
    final RowColumn keys;
    final int[] keyOffs; // null: identity (one value per key)
    final RowColumn vals;
    final int[] valOffs; // null: identity (one update per value)
    final long[] times; // null: every update at uniformTime
    final long[] diffs; // null: every diff is uniformDiff
    final long uniformTime;
    final long uniformDiff;
    final int keyCount;
    final int valCount;
    final int updateCount;
    private final long lower;
    private final long upper;
    private final long since;

    Batch(RowColumn keys, int[] keyOffs, int keyCount, RowColumn vals, int[] valOffs, int valCount,
            long[] times, long uniformTime, long[] diffs, long uniformDiff, int updateCount,
            long lower, long upper, long since) {
        if (lower > upper) throw new IllegalArgumentException("batch lower " + lower + " > upper " + upper);
        this.keys = keys;
        this.keyOffs = keyOffs;
        this.keyCount = keyCount;
        this.vals = vals;
        this.valOffs = valOffs;
        this.valCount = valCount;
        this.times = times;
        this.uniformTime = uniformTime;
        this.diffs = diffs;
        this.uniformDiff = uniformDiff;
        this.updateCount = updateCount;
        this.lower = lower;
        this.upper = upper;
        this.since = Math.max(since, lower);
    }

    /** First value position of key {@code k}; {@code valStart(k + 1)} ends it ({@code k <= keyCount}). */
    int valStart(int k) { return keyOffs == null ? k : keyOffs[k]; }

    /** First update position of value {@code v}; {@code updStart(v + 1)} ends it ({@code v <= valCount}). */
    int updStart(int v) { return valOffs == null ? v : valOffs[v]; }

    long time(int u) { return times == null ? uniformTime : times[u]; }

    long diff(int u) { return diffs == null ? uniformDiff : diffs[u]; }

    /** A batch with no updates that covers {@code [lower, upper)}. */
    public static Batch empty(long lower, long upper) {
        return new Batch(EmptyRows.INSTANCE, null, 0, EmptyRows.INSTANCE, null, 0, null, 0, null, 0, 0, lower, upper, lower);
    }

    /** Sorts and consolidates {@code updates} into a batch over {@code [lower, upper)}. */
    public static Batch of(List<KeyValUpdate> updates, long lower, long upper) {
        Batcher b = new Batcher(updates.size());
        for (KeyValUpdate u : updates) b.add(u);
        Batch out = b.seal(lower, upper);
        if (b.pending() != 0) {
            throw new IllegalArgumentException("update time at or beyond batch upper " + upper);
        }
        return out;
    }

    /** Inclusive lower bound of every time in the batch. */
    public long lower() { return lower; }

    /** Exclusive upper bound of every time in the batch. */
    public long upper() { return upper; }

    /** Times below since were advanced to since; the batch reads exactly at {@code t >= since}. */
    public long since() { return since; }

    /** Number of updates (distinct {@code (key, val, time)} triples). */
    public int size() { return updateCount; }

    public boolean isEmpty() { return updateCount == 0; }

    /** Number of distinct keys. */
    public int keyCount() { return keyCount; }

    /** A cursor over this batch alone. */
    public Cursor cursor() { return new BatchCursor(this); }

    /**
     * The position of {@code key} among this batch's keys, or -1: one binary search
     * ({@code log2(keyCount)} comparisons; a cursor's gallop from the start takes about
     * twice as many, and each comparison of a large batch is a cache miss or more).
     */
    int findKey(Row key) {
        int lo = 0;
        int hi = keyCount - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = keys.compareTo(mid, key);
            if (c < 0) lo = mid + 1;
            else if (c > 0) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** The accumulated diff at {@code t} of value position {@code valPos} (times ascend within it). */
    long diffAt(int valPos, long t) {
        int end = updStart(valPos + 1);
        long sum = 0;
        for (int u = updStart(valPos); u < end && time(u) <= t; u++) sum += diff(u);
        return sum;
    }

    /** The same updates with a wider description; shares the arrays (no copy). */
    Batch withBounds(long newLower, long newUpper) {
        if (newLower > lower || newUpper < upper) {
            throw new IllegalArgumentException("bounds may only widen");
        }
        return new Batch(keys, keyOffs, keyCount, vals, valOffs, valCount, times, uniformTime, diffs, uniformDiff,
                updateCount, newLower, newUpper, since > lower ? since : newLower);
    }

    /** Every update as an object, in storage order. For tests and diagnostics; allocates. */
    public List<KeyValUpdate> updates() {
        List<KeyValUpdate> out = new ArrayList<>(updateCount);
        for (int k = 0; k < keyCount; k++) {
            for (int v = valStart(k); v < valStart(k + 1); v++) {
                for (int u = updStart(v); u < updStart(v + 1); u++) {
                    out.add(new KeyValUpdate(keys.row(k), vals.row(v), time(u), diff(u)));
                }
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "Batch[lower=" + lower + ", upper=" + upper + ", since=" + since + ", size=" + updateCount + "]";
    }
}
