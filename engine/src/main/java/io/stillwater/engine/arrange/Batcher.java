package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.Arrays;
import java.util.Objects;

/**
 * Collects unsorted updates and seals them into sorted, consolidated {@link Batch}es.
 *
 * <p>Updates are kept in parallel arrays (no per-update objects); {@link #seal} sorts an
 * index permutation. Like differential dataflow's batcher, {@code seal(lower, upper)} takes
 * the updates at times {@code < upper} and keeps those at or beyond {@code upper} for a
 * later seal. Owned by one thread.
 */
public final class Batcher {
    private Row[] keys;
    private Row[] vals;
    private long[] times;
    private long[] diffs;
    private int count;

    public Batcher() { this(64); }

    public Batcher(int capacity) {
        int cap = Math.max(capacity, 1);
        keys = new Row[cap];
        vals = new Row[cap];
        times = new long[cap];
        diffs = new long[cap];
    }

    /** Adds one update; a zero diff is ignored. */
    public Batcher add(Row key, Row val, long time, long diff) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(val, "val");
        if (diff == 0) return this;
        if (count == keys.length) {
            int cap = (int) Math.min(Integer.MAX_VALUE - 16L, Math.max(8L, count + (long) (count >> 1)));
            keys = Arrays.copyOf(keys, cap);
            vals = Arrays.copyOf(vals, cap);
            times = Arrays.copyOf(times, cap);
            diffs = Arrays.copyOf(diffs, cap);
        }
        keys[count] = key;
        vals[count] = val;
        times[count] = time;
        diffs[count] = diff;
        count++;
        return this;
    }

    public Batcher add(KeyValUpdate u) { return add(u.key(), u.val(), u.time(), u.diff()); }

    /** Updates added and not yet sealed (those kept back by earlier seals included). */
    public int pending() { return count; }

    /**
     * A batch of every pending update at a time {@code < upper}; updates at times
     * {@code >= upper} stay pending.
     *
     * @throws IllegalArgumentException if a pending update's time is below {@code lower}
     */
    public Batch seal(long lower, long upper) {
        if (lower > upper) throw new IllegalArgumentException("lower " + lower + " > upper " + upper);
        int[] idx = new int[count];
        int n = 0;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            long t = times[i];
            if (t < lower) {
                throw new IllegalArgumentException("update at time " + t + " is below the batch lower " + lower);
            }
            if (t < upper) {
                idx[n++] = i;
            }
        }
        mergeSort(idx, n);

        BatchBuilder out = new BatchBuilder(n, n, n);
        Row curKey = null;
        Row curVal = null;
        for (int j = 0; j < n; j++) {
            int i = idx[j];
            Row k = keys[i];
            Row v = vals[i];
            boolean newKey = curKey == null || RowOrder.compare(curKey, k) != 0;
            if (newKey || RowOrder.compare(curVal, v) != 0) {
                if (curKey != null) out.endGroup();
                out.startGroup(k, v, newKey);
                curKey = k;
                curVal = v;
            }
            out.push(times[i], diffs[i]);
        }
        if (curKey != null) out.endGroup();
        Batch batch = out.build(lower, upper, lower);

        // Keep the updates at or beyond upper, in their original order.
        for (int i = 0; i < count; i++) {
            if (times[i] >= upper) {
                keys[kept] = keys[i];
                vals[kept] = vals[i];
                times[kept] = times[i];
                diffs[kept] = diffs[i];
                kept++;
            }
        }
        Arrays.fill(keys, kept, count, null);
        Arrays.fill(vals, kept, count, null);
        count = kept;
        return batch;
    }

    private int compare(int a, int b) {
        int c = RowOrder.compare(keys[a], keys[b]);
        if (c != 0) return c;
        c = RowOrder.compare(vals[a], vals[b]);
        if (c != 0) return c;
        return Long.compare(times[a], times[b]);
    }

    /** Stable merge sort of {@code idx[0..n)} by (key, val, time); no boxing. */
    private void mergeSort(int[] idx, int n) {
        if (n < 2) return;
        int[] tmp = new int[n];
        // Insertion-sort runs of 16, then merge bottom-up.
        final int run = 16;
        for (int lo = 0; lo < n; lo += run) {
            int hi = Math.min(lo + run, n);
            for (int i = lo + 1; i < hi; i++) {
                int x = idx[i];
                int j = i - 1;
                while (j >= lo && compare(idx[j], x) > 0) {
                    idx[j + 1] = idx[j];
                    j--;
                }
                idx[j + 1] = x;
            }
        }
        int[] src = idx;
        int[] dst = tmp;
        for (int width = run; width < n; width <<= 1) {
            for (int lo = 0; lo < n; lo += width << 1) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + (width << 1), n);
                if (mid >= hi || compare(src[mid - 1], src[mid]) <= 0) {
                    System.arraycopy(src, lo, dst, lo, hi - lo); // already in order
                    continue;
                }
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) dst[k++] = compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
                while (i < mid) dst[k++] = src[i++];
                while (j < hi) dst[k++] = src[j++];
            }
            int[] s = src;
            src = dst;
            dst = s;
        }
        if (src != idx) System.arraycopy(src, 0, idx, 0, n);
    }
}
