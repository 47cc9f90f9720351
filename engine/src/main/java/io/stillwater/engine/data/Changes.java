package io.stillwater.engine.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of one collection at one time: a multiset delta (a Z-set). Operators
 * consume and produce {@code Changes} one time step at a time.
 *
 * <p>Mutable while an operator builds it; treat as immutable once handed on.
 */
public final class Changes {
    private final ArrayList<Row> rows;
    private final ArrayList<Long> diffs;

    public Changes() { this(16); }

    public Changes(int capacity) {
        rows = new ArrayList<>(capacity);
        diffs = new ArrayList<>(capacity);
    }

    public static Changes empty() { return new Changes(0); }

    /** One change per row with diff +1: a collection's contents as an insertion. */
    public static Changes insertAll(Iterable<Row> rows) {
        Changes c = new Changes();
        for (Row r : rows) c.add(r, 1);
        return c;
    }

    public Changes add(Row row, long diff) {
        if (diff != 0) {
            rows.add(row);
            diffs.add(diff);
        }
        return this;
    }

    public Changes addAll(Changes other) {
        rows.addAll(other.rows);
        diffs.addAll(other.diffs);
        return this;
    }

    public Changes addAllNegated(Changes other) {
        for (int i = 0; i < other.size(); i++) add(other.row(i), -other.diff(i));
        return this;
    }

    public int size() { return rows.size(); }

    public boolean isEmpty() { return rows.isEmpty(); }

    public Row row(int i) { return rows.get(i); }

    public long diff(int i) { return diffs.get(i); }

    public List<RowDiff> asList() {
        List<RowDiff> out = new ArrayList<>(size());
        for (int i = 0; i < size(); i++) out.add(new RowDiff(rows.get(i), diffs.get(i)));
        return out;
    }

    /** A new Changes with equal rows merged and zero diffs dropped, sorted by row. */
    public Changes consolidate() {
        Map<Row, Long> sums = new HashMap<>(size() * 2);
        for (int i = 0; i < size(); i++) sums.merge(rows.get(i), diffs.get(i), Long::sum);
        List<Row> keys = new ArrayList<>(sums.keySet());
        Collections.sort(keys);
        Changes out = new Changes(keys.size());
        for (Row r : keys) out.add(r, sums.get(r));
        return out;
    }

    @Override
    public String toString() { return asList().toString(); }
}
