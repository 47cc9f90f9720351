package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import java.util.HashMap;
import java.util.Map;

/**
 * A multiset of rows: row to its (non-zero) accumulated multiplicity. Operator state;
 * owned by one operator and touched only from the thread that steps its dataflow.
 * Counts are kept in one-element arrays so updating an existing row allocates nothing.
 */
final class Counts {
    private final HashMap<Row, long[]> map;

    Counts() { map = new HashMap<>(); }

    Counts(int expected) { map = HashMap.newHashMap(expected); }

    /** Adds {@code diff} to {@code row}'s count and returns the new count (entries at 0 are removed). */
    long update(Row row, long diff) {
        long[] c = map.get(row);
        if (c == null) {
            if (diff != 0) map.put(row, new long[] {diff});
            return diff;
        }
        c[0] += diff;
        if (c[0] == 0) {
            map.remove(row);
            return 0;
        }
        return c[0];
    }

    long get(Row row) {
        long[] c = map.get(row);
        return c == null ? 0 : c[0];
    }

    boolean isEmpty() { return map.isEmpty(); }

    int size() { return map.size(); }

    /** True when some row has a positive count. */
    boolean hasPositive() {
        for (long[] c : map.values()) if (c[0] > 0) return true;
        return false;
    }

    Iterable<Map.Entry<Row, long[]>> entries() { return map.entrySet(); }
}
