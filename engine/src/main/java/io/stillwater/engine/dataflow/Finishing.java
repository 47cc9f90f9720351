package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.QueryPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

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
        Integer[] order = new Integer[result.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        if (!plan.order().isEmpty()) {
            Comparator<Row> cmp = RowOrder.byKeys(plan.order());
            Arrays.sort(order, (a, b) -> cmp.compare(result.row(a), result.row(b)));
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
}
