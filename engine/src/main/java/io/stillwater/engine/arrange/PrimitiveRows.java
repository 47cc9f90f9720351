package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.Datums;

/**
 * A row column of fixed arity whose every column holds only {@code Integer}s or only
 * {@code Long}s, plus NULLs: the datums are stored unboxed, one primitive array per column
 * ({@code int[]} for an int column, {@code long[]} for a bigint one) and a NULL bitmap for a
 * column that has a NULL. A two-int key costs 8 bytes per row here against about 80 as
 * {@code Row} + {@code Object[]} + two {@code Integer}s.
 *
 * <p>Invariants: {@code kinds[c]} says which of {@code ints[c]}/{@code longs[c]} holds column
 * {@code c} ({@link #NULLS}: neither, every row is NULL there); a NULL slot's primitive is 0
 * and its bit in {@code nulls[c]} is set; {@code nulls[c]} is null when the column has no
 * NULL. Built by {@link RowColumnBuilder}, never written afterwards.
 *
 * <p>Comparisons are numeric, which is what {@link Datums#compare} does for integral numbers
 * of any class, so they agree with {@link Row#compareTo}; a probe datum that is neither an
 * {@code Integer} nor a {@code Long} is compared through {@link Datums#compare} on the boxed
 * stored value.
 */
final class PrimitiveRows implements RowColumn {
    static final byte NULLS = 0;
    static final byte INT = 1;
    static final byte LONG = 2;

    private final byte[] kinds;
    private final int[][] ints;
    private final long[][] longs;
    private final long[][] nulls;

    PrimitiveRows(byte[] kinds, int[][] ints, long[][] longs, long[][] nulls) {
        this.kinds = kinds;
        this.ints = ints;
        this.longs = longs;
        this.nulls = nulls;
    }

    int arity() { return kinds.length; }

    byte kind(int c) { return kinds[c]; }

    boolean isNull(int c, int i) {
        if (kinds[c] == NULLS) return true;
        long[] bits = nulls[c];
        return bits != null && (bits[i >>> 6] & (1L << i)) != 0;
    }

    /** The primitive at {@code (c, i)}; 0 for a NULL. */
    long value(int c, int i) {
        return switch (kinds[c]) {
            case INT -> ints[c][i];
            case LONG -> longs[c][i];
            default -> 0L;
        };
    }

    private Object datum(int c, int i) {
        if (isNull(c, i)) return null;
        return kinds[c] == INT ? (Object) Integer.valueOf(ints[c][i]) : (Object) Long.valueOf(longs[c][i]);
    }

    @Override
    public Row row(int i) {
        Object[] out = new Object[kinds.length];
        for (int c = 0; c < out.length; c++) out[c] = datum(c, i);
        return Row.wrap(out);
    }

    @Override
    public int compareTo(int i, Row other) {
        int n = Math.min(kinds.length, other.arity());
        for (int c = 0; c < n; c++) {
            Object d = other.get(c);
            boolean mineNull = isNull(c, i);
            if (mineNull || d == null) {
                if (mineNull && d == null) continue;
                return mineNull ? -1 : 1; // NULL first
            }
            int r;
            if (d instanceof Integer x) r = Long.compare(value(c, i), x);
            else if (d instanceof Long x) r = Long.compare(value(c, i), x);
            else r = Integer.signum(Datums.compare(datum(c, i), d));
            if (r != 0) return r;
        }
        return Integer.compare(kinds.length, other.arity());
    }

    /** Sign of the comparison of row {@code i} with {@code o}'s row {@code j}; no boxing. */
    int compareTo(int i, PrimitiveRows o, int j) {
        int n = Math.min(kinds.length, o.kinds.length);
        for (int c = 0; c < n; c++) {
            boolean an = isNull(c, i);
            boolean bn = o.isNull(c, j);
            if (an || bn) {
                if (an && bn) continue;
                return an ? -1 : 1;
            }
            int r = Long.compare(value(c, i), o.value(c, j));
            if (r != 0) return r;
        }
        return Integer.compare(kinds.length, o.kinds.length);
    }

    @Override
    public Row rowEqualTo(int i, Row probe) {
        if (probe.arity() != kinds.length) return row(i);
        for (int c = 0; c < kinds.length; c++) {
            Object d = probe.get(c);
            boolean sameClass = switch (kinds[c]) {
                case INT -> d == null || d instanceof Integer;
                case LONG -> d == null || d instanceof Long;
                default -> d == null;
            };
            if (!sameClass) return row(i);
        }
        return probe; // equal values (the caller's promise) of the stored classes
    }
}
