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
 *
 * <p>The offset, time and diff columns stay unallocated while they carry no information
 * (one value per key, one update per value, one time, one diff: a table's rows inserted
 * once, or merged and compacted) and are filled in only when the first exception arrives,
 * so building such a batch, or a merge holding it half-built, costs only the row columns.
 */
final class BatchBuilder {
    private final RowColumnBuilder keys;
    private final RowColumnBuilder vals;
    private final int keyCapacity;
    private final int valCapacity;
    private int keyCount;
    private int valCount;
    private int updateCount;
    private int updateCapacity;

    // Each null while it would be the identity (keyOffs[k] == k, valOffs[v] == v) or
    // uniform (every time == uniformTime, every diff == uniformDiff) over the entries so far.
    private int[] keyOffs;
    private int[] valOffs;
    private long[] times;
    private long[] diffs;
    private long uniformTime;
    private long uniformDiff;

    // The current group's key and value: a row (groupKeyRow) or a position in a source
    // batch's column (groupKeyCol, groupKeyPos), so a merge copies primitives without boxing.
    private Row groupKeyRow;
    private RowColumn groupKeyCol;
    private int groupKeyPos;
    private Row groupValRow;
    private RowColumn groupValCol;
    private int groupValPos;
    private int groupStart;
    /** Whether the group's key is already the last key (an earlier group of it survived). */
    private boolean keyEmitted;

    BatchBuilder(int keyCapacity, int valCapacity, int updateCapacity) {
        this.keyCapacity = Math.max(keyCapacity, 1);
        this.valCapacity = Math.max(valCapacity, 1);
        this.updateCapacity = Math.max(updateCapacity, 1);
        keys = new RowColumnBuilder(keyCapacity);
        vals = new RowColumnBuilder(valCapacity);
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

    private long time(int u) { return times == null ? uniformTime : times[u]; }

    private long diff(int u) { return diffs == null ? uniformDiff : diffs[u]; }

    /** Adds {@code diff} at {@code time}; times within a group must not decrease. */
    void push(long time, long diff) {
        if (diff == 0) return;
        int n = updateCount;
        if (n > groupStart && time(n - 1) == time) {
            long sum = diff(n - 1) + diff;
            // Entries of a group are strictly increasing in time, so popping a zero
            // leaves the group consolidated.
            if (sum == 0) updateCount = n - 1;
            else setDiff(n - 1, sum);
            return;
        }
        if (n == updateCapacity) {
            updateCapacity = grow(n);
            if (times != null) times = Arrays.copyOf(times, updateCapacity);
            if (diffs != null) diffs = Arrays.copyOf(diffs, updateCapacity);
        }
        setTime(n, time);
        setDiff(n, diff);
        updateCount = n + 1;
    }

    /** Writes entry {@code u} (an append at updateCount, or the last entry). */
    private void setTime(int u, long t) {
        if (times == null) {
            if (u == 0) {
                uniformTime = t;
                return;
            }
            if (t == uniformTime) return;
            times = new long[updateCapacity];
            Arrays.fill(times, 0, u, uniformTime);
        }
        times[u] = t;
    }

    private void setDiff(int u, long d) {
        if (diffs == null) {
            if (u == 0) {
                uniformDiff = d;
                return;
            }
            if (d == uniformDiff) return;
            diffs = new long[updateCapacity];
            Arrays.fill(diffs, 0, u, uniformDiff);
        }
        diffs[u] = d;
    }

    void endGroup() {
        if (updateCount == groupStart) return; // everything cancelled
        if (!keyEmitted) {
            keyEmitted = true;
            if (groupKeyCol != null) keys.append(groupKeyCol, groupKeyPos);
            else keys.append(groupKeyRow);
            if (keyOffs != null) {
                if (keyCount == keyOffs.length - 1) keyOffs = Arrays.copyOf(keyOffs, grow(keyCount) + 1);
                keyOffs[keyCount] = valCount;
            }
            keyCount++;
        } else if (keyOffs == null) {
            // A second value of the last key: offsets stop being the identity.
            keyOffs = identity(Math.max(keyCapacity, keyCount) + 1, keyCount);
        }
        if (groupValCol != null) vals.append(groupValCol, groupValPos);
        else vals.append(groupValRow);
        if (valOffs == null && updateCount - groupStart != 1) {
            valOffs = identity(Math.max(valCapacity, valCount + 1) + 1, valCount);
        }
        if (valOffs != null) {
            if (valCount == valOffs.length - 1) valOffs = Arrays.copyOf(valOffs, grow(valCount) + 1);
            valOffs[valCount] = groupStart;
        }
        valCount++;
    }

    /** {@code xs[i] = i} for {@code i < n}, in an array of {@code length}. */
    private static int[] identity(int length, int n) {
        int[] xs = new int[length];
        for (int i = 0; i < n; i++) xs[i] = i;
        return xs;
    }

    int size() { return updateCount; }

    Batch build(long lower, long upper, long since) {
        // Columns that carry no information stay dropped (see Batch); those kept are
        // trimmed only when a lot of the capacity went unused (compaction or consolidation),
        // so the common exact-size case costs no copy. Row columns use the same rule.
        int[] kOffs = null;
        if (keyOffs != null) {
            if (keyOffs.length < keyCount + 1) keyOffs = Arrays.copyOf(keyOffs, keyCount + 1);
            keyOffs[keyCount] = valCount;
            kOffs = trim(keyOffs, keyCount + 1);
        }
        int[] vOffs = null;
        if (valOffs != null) {
            if (valOffs.length < valCount + 1) valOffs = Arrays.copyOf(valOffs, valCount + 1);
            valOffs[valCount] = updateCount;
            vOffs = trim(valOffs, valCount + 1);
        }
        long[] ts = times == null || allEqual(times, updateCount) ? null : trim(times, updateCount);
        long[] ds = diffs == null || allEqual(diffs, updateCount) ? null : trim(diffs, updateCount);
        long t0 = updateCount == 0 ? 0 : time(0);
        long d0 = updateCount == 0 ? 0 : diff(0);
        return new Batch(keys.build(), kOffs, keyCount, vals.build(), vOffs, valCount, ts, t0, ds, d0,
                updateCount, lower, upper, since);
    }

    private static int[] trim(int[] xs, int used) {
        return wasteful(xs.length, used) ? Arrays.copyOf(xs, used) : xs;
    }

    private static long[] trim(long[] xs, int used) {
        return wasteful(xs.length, used) ? Arrays.copyOf(xs, used) : xs;
    }

    /** Whether the first n entries are all equal (entries popped back to uniform). */
    private static boolean allEqual(long[] xs, int n) {
        for (int i = 1; i < n; i++) {
            if (xs[i] != xs[0]) return false;
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
