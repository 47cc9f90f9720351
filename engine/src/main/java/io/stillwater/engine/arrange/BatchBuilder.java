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
    private RowColumnBuilder keys;
    private int[] keyOffs;
    private int keyCount;
    private RowColumnBuilder vals;
    private int[] valOffs;
    private int valCount;
    private long[] times;
    private long[] diffs;
    private int updateCount;

    // The current group's key and value: a row (groupKeyRow) or a position in a source
    // batch's column (groupKeyCol, groupKeyPos), so a merge copies primitives without boxing.
    private Row groupKeyRow;
    private RowColumn groupKeyCol;
    private int groupKeyPos;
    private Row groupValRow;
    private RowColumn groupValCol;
    private int groupValPos;
    private int groupStart;
    /** Whether groupKey is already the last entry of keys (an earlier group of it survived). */
    private boolean keyEmitted;

    BatchBuilder(int keyCapacity, int valCapacity, int updateCapacity) {
        keys = new RowColumnBuilder(keyCapacity);
        keyOffs = new int[Math.max(keyCapacity, 1) + 1];
        vals = new RowColumnBuilder(valCapacity);
        valOffs = new int[Math.max(valCapacity, 1) + 1];
        times = new long[Math.max(updateCapacity, 1)];
        diffs = new long[times.length];
    }

    void startGroup(Row key, Row val, boolean newKey) {
        if (newKey) keyEmitted = false;
        groupKeyRow = key;
        groupKeyCol = null;
        groupValRow = val;
        groupValCol = null;
        groupStart = updateCount;
    }

    /** {@link #startGroup(Row, Row, boolean)} with the key and value read from batch columns. */
    void startGroup(RowColumn keyCol, int keyPos, RowColumn valCol, int valPos, boolean newKey) {
        if (newKey) keyEmitted = false;
        groupKeyRow = null;
        groupKeyCol = keyCol;
        groupKeyPos = keyPos;
        groupValRow = null;
        groupValCol = valCol;
        groupValPos = valPos;
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
        if (!keyEmitted) {
            keyEmitted = true;
            if (keyCount == keyOffs.length - 1) keyOffs = Arrays.copyOf(keyOffs, grow(keyCount) + 1);
            if (groupKeyCol != null) keys.append(groupKeyCol, groupKeyPos);
            else keys.append(groupKeyRow);
            keyOffs[keyCount] = valCount;
            keyCount++;
        }
        if (valCount == valOffs.length - 1) valOffs = Arrays.copyOf(valOffs, grow(valCount) + 1);
        if (groupValCol != null) vals.append(groupValCol, groupValPos);
        else vals.append(groupValRow);
        valOffs[valCount] = groupStart;
        valCount++;
    }

    int size() { return updateCount; }

    Batch build(long lower, long upper, long since) {
        keyOffs[keyCount] = valCount;
        valOffs[valCount] = updateCount;
        // Columns that carry no information are dropped (see Batch): one value per key, one
        // update per value, one time, one diff. A compacted table's batch keeps only its keys.
        // The others are trimmed only when a lot of the capacity went unused (compaction or
        // consolidation), so the common exact-size case costs no copy. Row columns are
        // trimmed by the same rule.
        int[] kOffs = keyCount == valCount ? null : trim(keyOffs, keyCount + 1);
        int[] vOffs = valCount == updateCount ? null : trim(valOffs, valCount + 1);
        long uniformTime = updateCount == 0 ? 0 : times[0];
        long uniformDiff = updateCount == 0 ? 0 : diffs[0];
        long[] ts = allEqual(times, updateCount, uniformTime) ? null : trim(times, updateCount);
        long[] ds = allEqual(diffs, updateCount, uniformDiff) ? null : trim(diffs, updateCount);
        Batch b = new Batch(keys.build(), kOffs, keyCount, vals.build(), vOffs, valCount, ts, uniformTime, ds, uniformDiff,
                updateCount, lower, upper, since);
        keys = null; // the arrays now belong to the batch
        vals = null;
        times = null;
        diffs = null;
        return b;
    }

    private static int[] trim(int[] xs, int used) {
        return wasteful(xs.length, used) ? Arrays.copyOf(xs, used) : xs;
    }

    private static long[] trim(long[] xs, int used) {
        return wasteful(xs.length, used) ? Arrays.copyOf(xs, used) : xs;
    }

    private static boolean allEqual(long[] xs, int n, long x) {
        for (int i = 0; i < n; i++) {
            if (xs[i] != x) return false;
        }
        return true;
    }

    static boolean wasteful(int capacity, int used) {
        return capacity - used > 16 && capacity - used > (used >>> 3);
    }

    private static int grow(int n) {
        long cap = Math.max(8L, (long) n + (n >> 1));
        if (cap > Integer.MAX_VALUE - 16) throw new IllegalStateException("batch too large");
        return (int) cap;
    }
}
