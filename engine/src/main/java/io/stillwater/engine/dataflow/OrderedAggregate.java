package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.SortKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * An order-sensitive aggregate that collects its values (array_agg, jsonb_agg,
 * jsonb_object_agg): it keeps the multiset of (value columns..., ORDER BY columns...)
 * tuples sorted by the aggregate's ORDER BY, then by the whole tuple so the result is
 * deterministic without one, and builds its result from the values in that order.
 * Exact under retractions: a retracted tuple leaves the multiset.
 *
 * <p>Rows whose {@code skipNullColumn} value is NULL are not collected (-1 keeps every
 * row: array_agg and jsonb_agg keep NULL values).
 */
final class OrderedAggregate implements Accumulator {
    private final int[] columns;
    private final int valueCount;
    private final int skipNullColumn;
    private final TreeMap<Row, long[]> values;
    private final Function<List<Row>, Object> finish;

    /**
     * @param valueColumns the input columns of the aggregate's arguments
     * @param finish builds the result from the argument tuples in order (at least one)
     */
    OrderedAggregate(int[] valueColumns, List<SortKey> order, int skipNullColumn, Function<List<Row>, Object> finish) {
        valueCount = valueColumns.length;
        columns = new int[valueCount + order.size()];
        System.arraycopy(valueColumns, 0, columns, 0, valueCount);
        List<SortKey> remapped = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            SortKey k = order.get(i);
            columns[valueCount + i] = k.column();
            remapped.add(new SortKey(valueCount + i, k.descending(), k.nullsFirst()));
        }
        Comparator<Row> cmp = RowOrder.byKeysThenRow(remapped);
        this.values = new TreeMap<>(cmp);
        this.skipNullColumn = skipNullColumn;
        this.finish = finish;
    }

    @Override
    public void add(Row input, long diff) {
        if (skipNullColumn >= 0 && input.get(skipNullColumn) == null) return;
        Object[] t = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) t[i] = input.get(columns[i]);
        Row key = Row.wrap(t);
        long[] c = values.computeIfAbsent(key, k -> new long[1]);
        c[0] += diff;
        if (c[0] == 0) values.remove(key);
    }

    @Override
    public long entries() { return values.size(); }

    /** NULL over no rows, as PostgreSQL's array_agg and jsonb_agg are. */
    @Override
    public Object result() {
        if (values.isEmpty()) return null;
        List<Row> ordered = new ArrayList<>();
        for (Map.Entry<Row, long[]> e : values.entrySet()) {
            Row t = e.getKey();
            Row value = valueCount == columns.length ? t : t.project(range(valueCount));
            for (long i = 0; i < e.getValue()[0]; i++) ordered.add(value);
        }
        return finish.apply(ordered);
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }
}
