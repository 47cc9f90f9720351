package io.stillwater.engine.data;

import io.stillwater.engine.types.Datums;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An immutable tuple of datums: one value per column, SQL NULL as {@code null}.
 *
 * <p>Rows compare column by column in {@link Datums#ORDER} (shorter rows first on a
 * common prefix), which is the order arrangements sort by. Rows never change after
 * construction: {@link #of} copies; {@link #wrap} takes ownership of the array.
 */
public final class Row implements Comparable<Row> {
    public static final Row EMPTY = new Row(new Object[0]);

    private final Object[] values;
    private int hash; // cached; 0 means not yet computed (recomputing a real 0 is harmless)

    private Row(Object[] values) { this.values = values; }

    public static Row of(Object... values) { return new Row(values.clone()); }

    /** Takes ownership of {@code values}: the caller must not modify the array afterwards. */
    public static Row wrap(Object[] values) { return new Row(values); }

    public static Row of(List<?> values) { return new Row(values.toArray()); }

    public int arity() { return values.length; }

    public Object get(int i) { return values[i]; }

    /** A copy of the values. */
    public Object[] toArray() { return values.clone(); }

    /** Values in column order, unmodifiable. */
    public List<Object> asList() { return Collections.unmodifiableList(Arrays.asList(values)); }

    /** The columns at {@code indexes}, in that order. */
    public Row project(int[] indexes) {
        Object[] out = new Object[indexes.length];
        for (int i = 0; i < indexes.length; i++) out[i] = values[indexes[i]];
        return new Row(out);
    }

    /** This row's columns followed by {@code other}'s. */
    public Row concat(Row other) {
        Object[] out = Arrays.copyOf(values, values.length + other.values.length);
        System.arraycopy(other.values, 0, out, values.length, other.values.length);
        return new Row(out);
    }

    @Override
    public int compareTo(Row o) {
        int n = Math.min(values.length, o.values.length);
        for (int i = 0; i < n; i++) {
            int c = Datums.compare(values[i], o.values[i]);
            if (c != 0) return c;
        }
        return Integer.compare(values.length, o.values.length);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Row r) || r.values.length != values.length) return false;
        if (hashCode() != r.hashCode()) return false;
        return compareTo(r) == 0;
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            for (Object v : values) h = 31 * h + Datums.hash(v);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() { return Arrays.toString(values); }
}
