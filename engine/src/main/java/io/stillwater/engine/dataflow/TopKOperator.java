package io.stillwater.engine.dataflow;

import java.util.LinkedHashMap;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.plan.SortKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per group, the rows at positions {@code [offset, offset + limit)} of the ORDER BY
 * (ties broken by the whole row, so the window is deterministic). State: each group's
 * accumulated rows in that order. When a group changes, its window before the changes is
 * remembered (negated) and, at emit, the window after them is added: the difference is
 * emitted, which handles deletions that pull later rows into the window.
 *
 * <p>In a one-shot read whose input carries no retractions ({@link #pruneBeyondWindow}),
 * a group keeps only the rows that can still be in its window: at most {@code offset +
 * limit} of them, so {@code ORDER BY ... LIMIT k} inside a query holds k rows, not its input.
 */
final class TopKOperator extends Operator implements Absorbing {
    /** A tree entry and its count, beyond the row itself. */
    private static final long ENTRY_BYTES = 64;

    private final int[] groupKeys;
    private final Comparator<Row> order;
    private final long limit;
    private final long offset;
    private final HashMap<Row, TreeMap<Row, long[]>> groups = new HashMap<>();
    /** Groups changed since the last complete emit (first-change order), with their window before the changes, negated. */
    private final Map<Row, Counts> touched = new LinkedHashMap<>();
    private List<Map.Entry<Row, Counts>> emitting;
    private int emitted;
    private boolean prune;
    private long stateBytes;

    TopKOperator(int[] groupKeys, List<SortKey> order, long limit, long offset, Cancellation cancel) {
        super(cancel);
        this.groupKeys = groupKeys.clone();
        this.order = RowOrder.byKeysThenRow(order);
        this.limit = limit < 0 ? Long.MAX_VALUE : limit;
        this.offset = Math.max(offset, 0);
    }

    /**
     * Lets groups drop rows past their window as they absorb: only for an input whose
     * diffs are all positive (nothing can later pull a dropped row back into the window).
     */
    void pruneBeyondWindow() { prune = limit != Long.MAX_VALUE; }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        absorb(inputs[0], errors);
        Changes out = new Changes();
        for (Changes c = emit(Integer.MAX_VALUE, errors); c != null; c = emit(Integer.MAX_VALUE, errors)) out.addAll(c);
        return out;
    }

    @Override
    public void absorb(Changes in, Changes errors) {
        long rowBytes = in.isEmpty() ? 0 : HeapEstimate.chunk(in) / in.size();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            Row key = groupKeys.length == 0 ? Row.EMPTY : r.project(groupKeys);
            TreeMap<Row, long[]> rows = groups.get(key);
            if (rows == null) {
                rows = new TreeMap<>(order);
                groups.put(key, rows);
                stateBytes += HeapEstimate.MAP_ENTRY + HeapEstimate.row(key);
            }
            Counts before = touched.get(key);
            if (before == null) {
                before = new Counts();
                window(rows, before, -1);
                touched.put(key, before);
            }
            long[] c = rows.get(r);
            if (c == null) {
                rows.put(r, c = new long[1]);
                stateBytes += ENTRY_BYTES + rowBytes;
            }
            c[0] += in.diff(i);
            if (c[0] == 0) {
                rows.remove(r);
                stateBytes = Math.max(0, stateBytes - ENTRY_BYTES - rowBytes);
            }
            if (prune && rows.size() > 2 * Math.min(offset + limit, Integer.MAX_VALUE / 4) + 16) {
                stateBytes = Math.max(0, stateBytes - trim(rows) * (ENTRY_BYTES + rowBytes));
            }
        }
    }

    /** Drops the rows after the first {@code offset + limit} (by count); returns how many entries went. */
    private long trim(TreeMap<Row, long[]> rows) {
        long need = offset > Long.MAX_VALUE - limit ? Long.MAX_VALUE : offset + limit;
        long seen = 0;
        for (var e : rows.entrySet()) {
            seen += e.getValue()[0];
            if (seen >= need) {
                var tail = rows.tailMap(e.getKey(), false);
                long n = tail.size();
                tail.clear();
                return n;
            }
        }
        return 0;
    }

    @Override
    public Changes emit(int max, Changes errors) {
        if (emitting == null) emitting = new ArrayList<>(touched.entrySet());
        if (emitted == emitting.size()) {
            touched.clear();
            emitting = null;
            emitted = 0;
            return null;
        }
        Changes out = new Changes();
        while (emitted < emitting.size() && out.size() < max) {
            cancel.check();
            var g = emitting.get(emitted);
            emitting.set(emitted++, null);
            TreeMap<Row, long[]> rows = groups.get(g.getKey());
            Counts diff = g.getValue();
            window(rows, diff, 1);
            if (rows.isEmpty()) groups.remove(g.getKey());
            for (var e : diff.entries()) out.add(e.getKey(), e.getValue()[0]);
        }
        return out;
    }

    @Override
    public long stateBytes() { return stateBytes; }

    /** Adds the group's current window, times {@code sign}, to {@code acc}. */
    private void window(TreeMap<Row, long[]> rows, Counts acc, long sign) {
        long skip = offset;
        long remaining = limit;
        int ticks = 0;
        for (var e : rows.entrySet()) {
            if (remaining == 0) break;
            tick(ticks++);
            long take = e.getValue()[0];
            if (take <= 0) continue;
            if (skip > 0) {
                long s = Math.min(skip, take);
                skip -= s;
                take -= s;
            }
            if (take > 0) {
                long t = Math.min(take, remaining);
                acc.update(e.getKey(), sign * t);
                remaining -= t;
            }
        }
    }
}
