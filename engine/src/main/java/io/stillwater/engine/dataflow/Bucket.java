package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import java.util.Arrays;
import java.util.HashMap;

/**
 * The rows of one join key with their (non-zero) counts: compact parallel arrays, since
 * most keys hold a handful of rows, plus a hash index once a bucket grows (so building a
 * large bucket, as a cross join does, stays linear). Owned by one operator's thread.
 */
final class Bucket {
    private static final int INDEX_FROM = 16;

    private Row[] rows = new Row[2];
    private long[] counts = new long[2];
    private int size;
    private HashMap<Row, Integer> index; // row -> position, present once size reached INDEX_FROM

    int size() { return size; }

    boolean isEmpty() { return size == 0; }

    Row row(int i) { return rows[i]; }

    long count(int i) { return counts[i]; }

    /** Adds {@code diff} to {@code row}'s count, dropping it when the count reaches zero. */
    void update(Row row, long diff) {
        if (diff == 0) return;
        int at = find(row);
        if (at < 0) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
            }
            rows[size] = row;
            counts[size] = diff;
            if (index != null) index.put(row, size);
            else if (size + 1 == INDEX_FROM) buildIndex();
            size++;
            return;
        }
        counts[at] += diff;
        if (counts[at] == 0) remove(at);
    }

    private int find(Row row) {
        if (index != null) {
            Integer i = index.get(row);
            return i == null ? -1 : i;
        }
        for (int i = 0; i < size; i++) if (rows[i].equals(row)) return i;
        return -1;
    }

    private void buildIndex() {
        index = HashMap.newHashMap(INDEX_FROM * 2);
        for (int i = 0; i <= size; i++) index.put(rows[i], i);
    }

    private void remove(int at) {
        int last = size - 1;
        if (index != null) index.remove(rows[at]);
        if (at != last) {
            rows[at] = rows[last];
            counts[at] = counts[last];
            if (index != null) index.put(rows[at], at);
        }
        rows[last] = null;
        size--;
    }
}
