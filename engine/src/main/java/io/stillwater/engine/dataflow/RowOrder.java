package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.Datums;
import java.util.Comparator;
import java.util.List;

/**
 * ORDER BY over rows with PostgreSQL's semantics: each {@link SortKey} orders its column
 * ascending or descending, with NULLs placed first or last as the key says (independent
 * of the direction, as {@code NULLS FIRST/LAST} are in SQL).
 */
public final class RowOrder {
    private RowOrder() {}

    /** Orders by {@code keys} only; rows equal on every key compare 0. */
    public static Comparator<Row> byKeys(List<SortKey> keys) {
        SortKey[] ks = keys.toArray(SortKey[]::new);
        return (a, b) -> compare(a, b, ks);
    }

    /** Orders by {@code keys}, then by the whole row: a total order, so results are deterministic. */
    public static Comparator<Row> byKeysThenRow(List<SortKey> keys) {
        SortKey[] ks = keys.toArray(SortKey[]::new);
        return (a, b) -> {
            int c = compare(a, b, ks);
            return c != 0 ? c : a.compareTo(b);
        };
    }

    static int compare(Row a, Row b, SortKey[] keys) {
        for (SortKey k : keys) {
            int c = compareValues(a.get(k.column()), b.get(k.column()), k);
            if (c != 0) return c;
        }
        return 0;
    }

    static int compareValues(Object x, Object y, SortKey k) {
        if (x == null || y == null) {
            if (x == y) return 0;
            boolean xFirst = x == null ? k.nullsFirst() : !k.nullsFirst();
            return xFirst ? -1 : 1;
        }
        int c = Datums.compare(x, y);
        return k.descending() ? -c : c;
    }
}
