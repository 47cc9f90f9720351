package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.SortKey;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per group, the rows at positions {@code [offset, offset + limit)} of the ORDER BY
 * (ties broken by the whole row, so the window is deterministic). State: each group's
 * accumulated rows in that order. When a group changes, its window is derived before and
 * after applying the changes and the difference is emitted, which handles deletions
 * that pull later rows into the window.
 */
final class TopKOperator extends Operator {
    private final int[] groupKeys;
    private final Comparator<Row> order;
    private final long limit;
    private final long offset;
    private final HashMap<Row, TreeMap<Row, long[]>> groups = new HashMap<>();

    TopKOperator(int[] groupKeys, List<SortKey> order, long limit, long offset, Cancellation cancel) {
        super(cancel);
        this.groupKeys = groupKeys.clone();
        this.order = RowOrder.byKeysThenRow(order);
        this.limit = limit < 0 ? Long.MAX_VALUE : limit;
        this.offset = Math.max(offset, 0);
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        Map<Row, Changes> byGroup = new LinkedHashMap<>();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            Row key = groupKeys.length == 0 ? Row.EMPTY : r.project(groupKeys);
            byGroup.computeIfAbsent(key, k -> new Changes(4)).add(r, in.diff(i));
        }
        Changes out = new Changes();
        for (var g : byGroup.entrySet()) {
            cancel.check();
            TreeMap<Row, long[]> rows = groups.computeIfAbsent(g.getKey(), k -> new TreeMap<>(order));
            Counts diff = new Counts();
            window(rows, diff, -1);
            Changes d = g.getValue();
            for (int i = 0; i < d.size(); i++) {
                long[] c = rows.computeIfAbsent(d.row(i), k -> new long[1]);
                c[0] += d.diff(i);
                if (c[0] == 0) rows.remove(d.row(i));
            }
            window(rows, diff, 1);
            if (rows.isEmpty()) groups.remove(g.getKey());
            for (var e : diff.entries()) out.add(e.getKey(), e.getValue()[0]);
        }
        return out;
    }

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
