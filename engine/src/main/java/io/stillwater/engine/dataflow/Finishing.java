package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.QueryPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A SELECT's finishing, applied to a read's result outside the dataflow (as Materialize
 * does): expand multiplicities, sort by the top-level ORDER BY with PostgreSQL's NULL
 * placement, apply OFFSET and LIMIT, and drop the sort-only columns past the output
 * columns. Without ORDER BY the order is whatever the result had.
 */
public final class Finishing {
    private Finishing() {}

    public static List<Row> apply(QueryPlan plan, Changes result) {
        long skip = Math.max(plan.offset(), 0);
        long remaining = plan.limit() < 0 ? Long.MAX_VALUE : plan.limit();
        int width = plan.columnNames().size();
        Integer[] order;
        if (plan.order().isEmpty()) {
            order = new Integer[result.size()];
            for (int i = 0; i < order.length; i++) order[i] = i;
        } else {
            Comparator<Row> rows = RowOrder.byKeys(plan.order());
            Comparator<Integer> cmp = (a, b) -> rows.compare(result.row(a), result.row(b));
            long need = remaining > Long.MAX_VALUE - skip ? Long.MAX_VALUE : skip + remaining;
            if (need == 0) return List.of();
            order = need < result.size() / 4 ? smallest(result, need, cmp) : allIndexes(result);
            Arrays.sort(order, cmp);
        }
        int[] keep = null;
        List<Row> out = new ArrayList<>((int) Math.min(remaining, result.size()));
        for (int i : order) {
            if (remaining == 0) break;
            long take = result.diff(i);
            if (take <= 0) continue;
            long s = Math.min(skip, take);
            skip -= s;
            take = Math.min(take - s, remaining);
            if (take == 0) continue;
            remaining -= take;
            Row r = result.row(i);
            if (r.arity() > width) {
                if (keep == null) {
                    keep = new int[width];
                    for (int k = 0; k < width; k++) keep[k] = k;
                }
                r = r.project(keep);
            }
            for (long t = 0; t < take; t++) out.add(r);
        }
        return out;
    }

    private static Integer[] allIndexes(Changes result) {
        Integer[] all = new Integer[result.size()];
        for (int i = 0; i < all.length; i++) all[i] = i;
        return all;
    }

    /**
     * The fewest entries, in no order, that hold the first {@code need} rows of the
     * ORDER BY (counting multiplicities): a bounded max-heap, so ORDER BY ... LIMIT k over
     * n rows costs n log k rather than a full sort.
     */
    private static Integer[] smallest(Changes result, long need, Comparator<Integer> cmp) {
        PriorityQueue<Integer> heap = new PriorityQueue<>(cmp.reversed());
        long units = 0;
        for (int i = 0; i < result.size(); i++) {
            long d = result.diff(i);
            if (d <= 0) continue;
            if (units >= need && cmp.compare(i, heap.peek()) >= 0) continue;
            heap.add(i);
            units += d;
            while (units - result.diff(heap.peek()) >= need) units -= result.diff(heap.poll());
        }
        return heap.toArray(Integer[]::new);
    }
}
