package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.Arrays;

/**
 * Builds a {@link Batch} from updates pushed in {@code (key, val, time)} order, one
 * {@code (key, val)} group at a time, consolidating as it goes: equal times in a group
 * are summed, zero sums dropped, and groups left empty leave no trace.
 *
 * <p>Protocol: {@code startGroup(key, val, newKey)}, then {@code push(time, diff)} with
 * non-decreasing times, then {@code endGroup()}. Groups must come in strictly increasing
 * {@code (key, val)} order, and {@code newKey} must say whether {@code key} differs from
 * the previous group's key (callers know it from their own comparisons, so the builder
 * compares nothing). Owned by one thread; discarded after {@link #build}.
 */
final class BatchBuilder {
    private Row[] keys;
    private int[] keyOffs;
    private int keyCount;
    private Row[] vals;
    private int[] valOffs;
    private int valCount;
    private long[] times;
    private long[] diffs;
    private int updateCount;

    private Row groupKey;
    private Row groupVal;
    private int groupStart;
    /** Whether groupKey is already the last entry of keys (an earlier group of it survived). */
    private boolean keyEmitted;

    BatchBuilder(int keyCapacity, int valCapacity, int updateCapacity) {
        keys = new Row[Math.max(keyCapacity, 1)];
        keyOffs = new int[keys.length + 1];
        vals = new Row[Math.max(valCapacity, 1)];
        valOffs = new int[vals.length + 1];
        times = new long[Math.max(updateCapacity, 1)];
        diffs = new long[times.length];
    }

    void startGroup(Row key, Row val, boolean newKey) {
        if (newKey) keyEmitted = false;
        groupKey = key;
        groupVal = val;
        groupStart = updateCount;
    }

    /** Adds {@code diff} at {@code time}; times within a group must not decrease. */
    void push(long time, long diff) {
        if (diff == 0) return;
        int n = updateCount;
        if (n > groupStart && times[n - 1] == time) {
            long sum = diffs[n - 1] + diff;
            // Entries of a group are strictly increasing in time, so popping a zero
            // leaves the group consolidated.
            if (sum == 0) updateCount = n - 1;
            else diffs[n - 1] = sum;
            return;
        }
        if (n == times.length) {
            int cap = grow(n);
            times = Arrays.copyOf(times, cap);
            diffs = Arrays.copyOf(diffs, cap);
        }
        times[n] = time;
        diffs[n] = diff;
        updateCount = n + 1;
    }

    void endGroup() {
        if (updateCount == groupStart) return; // everything cancelled
        Row key = groupKey;
        if (!keyEmitted) {
            keyEmitted = true;
            if (keyCount == keys.length) {
                int cap = grow(keyCount);
                keys = Arrays.copyOf(keys, cap);
                keyOffs = Arrays.copyOf(keyOffs, cap + 1);
            }
            keys[keyCount] = key;
            keyOffs[keyCount] = valCount;
            keyCount++;
        }
        if (valCount == vals.length) {
            int cap = grow(valCount);
            vals = Arrays.copyOf(vals, cap);
            valOffs = Arrays.copyOf(valOffs, cap + 1);
        }
        vals[valCount] = groupVal;
        valOffs[valCount] = groupStart;
        valCount++;
    }

    int size() { return updateCount; }

    Batch build(long lower, long upper, long since) {
        keyOffs[keyCount] = valCount;
        valOffs[valCount] = updateCount;
        // Trim only when a lot of the capacity went unused (compaction or consolidation),
        // so the common exact-size case costs no copy.
        if (wasteful(keys.length, keyCount)) {
            keys = Arrays.copyOf(keys, keyCount);
            keyOffs = Arrays.copyOf(keyOffs, keyCount + 1);
        }
        if (wasteful(vals.length, valCount)) {
            vals = Arrays.copyOf(vals, valCount);
            valOffs = Arrays.copyOf(valOffs, valCount + 1);
        }
        if (wasteful(times.length, updateCount)) {
            times = Arrays.copyOf(times, updateCount);
            diffs = Arrays.copyOf(diffs, updateCount);
        }
        Batch b = new Batch(keys, keyOffs, keyCount, vals, valOffs, valCount, times, diffs, updateCount,
                lower, upper, since);
        keys = null; // the arrays now belong to the batch
        vals = null;
        times = null;
        diffs = null;
        return b;
    }

    private static boolean wasteful(int capacity, int used) {
        return capacity - used > 16 && capacity - used > (used >>> 3);
    }

    private static int grow(int n) {
        long cap = Math.max(8L, (long) n + (n >> 1));
        if (cap > Integer.MAX_VALUE - 16) throw new IllegalStateException("batch too large");
        return (int) cap;
    }
}
