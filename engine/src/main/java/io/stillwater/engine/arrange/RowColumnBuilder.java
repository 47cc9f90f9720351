package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.Arrays;

/**
 * Appends rows one at a time and builds the most compact {@link RowColumn} that holds them
 * all. It starts optimistic (empty rows, else primitive columns shaped by the first row) and
 * falls back to {@link BoxedRows} for good at the first row that does not fit: a different
 * arity, a datum that is not an {@code Integer}/{@code Long}/NULL, or a column whose non-null
 * datums mix {@code Integer} and {@code Long} (they would not read back as the classes
 * stored). Owned by one thread; discarded after {@link #build}.
 */
final class RowColumnBuilder {
    private enum Mode { UNDECIDED, EMPTY, PRIMITIVE, BOXED }

    private Mode mode = Mode.UNDECIDED;
    private int size;
    private int capacity;

    // PRIMITIVE: each column's kind so far (PrimitiveRows.NULLS until its first non-null
    // datum), its int[] or long[] allocated when the kind is decided (slots of earlier rows,
    // all NULL there, stay 0), and a NULL bitmap allocated at its first NULL. The arrays are
    // handed to the built column as they are (trimmed only when much is unused).
    private byte[] kinds;
    private int[][] ints;
    private long[][] longs;
    private long[][] nulls;

    // BOXED
    private Row[] rows;

    RowColumnBuilder(int capacity) {
        this.capacity = Math.max(capacity, 1);
    }

    int size() { return size; }

    void append(Row row) {
        if (mode == Mode.UNDECIDED) {
            if (row.arity() == 0) mode = Mode.EMPTY;
            else startPrimitive(row.arity());
        }
        switch (mode) {
            case EMPTY -> {
                if (row.arity() == 0) {
                    size++;
                    return;
                }
                fallBack();
            }
            case PRIMITIVE -> {
                if (appendPrimitive(row)) return;
                fallBack();
            }
            default -> { }
        }
        appendBoxed(row);
    }

    /** Appends {@code src}'s row {@code i}, copying primitives when both sides are primitive. */
    void append(RowColumn src, int i) {
        if (src instanceof PrimitiveRows p) {
            if (mode == Mode.UNDECIDED) startPrimitive(p.arity());
            if (mode == Mode.PRIMITIVE && appendPrimitive(p, i)) return;
        } else if (src instanceof BoxedRows b) {
            append(b.get(i));
            return;
        }
        append(src.row(i));
    }

    private void startPrimitive(int arity) {
        mode = Mode.PRIMITIVE;
        kinds = new byte[arity];
        ints = new int[arity][];
        longs = new long[arity][];
        nulls = new long[arity][];
    }

    /** Appends {@code row} if it fits the primitive columns; leaves them unchanged if not. */
    private boolean appendPrimitive(Row row) {
        int arity = kinds.length;
        if (row.arity() != arity) return false;
        for (int c = 0; c < arity; c++) {
            Object d = row.get(c);
            byte k;
            if (d == null) continue;
            else if (d instanceof Integer) k = PrimitiveRows.INT;
            else if (d instanceof Long) k = PrimitiveRows.LONG;
            else return false;
            if (kinds[c] != PrimitiveRows.NULLS && kinds[c] != k) return false;
        }
        ensureCapacity();
        for (int c = 0; c < arity; c++) {
            Object d = row.get(c);
            if (d == null) {
                setNull(c);
            } else if (d instanceof Integer x) {
                intColumn(c)[size] = x;
            } else {
                longColumn(c)[size] = (Long) d;
            }
        }
        size++;
        return true;
    }

    private boolean appendPrimitive(PrimitiveRows p, int i) {
        int arity = kinds.length;
        if (p.arity() != arity) return false;
        for (int c = 0; c < arity; c++) {
            byte k = p.kind(c);
            if (k != PrimitiveRows.NULLS && kinds[c] != PrimitiveRows.NULLS && kinds[c] != k) return false;
        }
        ensureCapacity();
        for (int c = 0; c < arity; c++) {
            if (p.isNull(c, i)) {
                setNull(c);
            } else if (p.kind(c) == PrimitiveRows.INT) {
                intColumn(c)[size] = (int) p.value(c, i);
            } else {
                longColumn(c)[size] = p.value(c, i);
            }
        }
        size++;
        return true;
    }

    private void setNull(int c) {
        long[] bits = nulls[c];
        if (bits == null) bits = nulls[c] = new long[words(capacity)];
        bits[size >>> 6] |= 1L << size;
    }

    private int[] intColumn(int c) {
        if (kinds[c] == PrimitiveRows.NULLS) {
            kinds[c] = PrimitiveRows.INT;
            ints[c] = new int[capacity];
        }
        return ints[c];
    }

    private long[] longColumn(int c) {
        if (kinds[c] == PrimitiveRows.NULLS) {
            kinds[c] = PrimitiveRows.LONG;
            longs[c] = new long[capacity];
        }
        return longs[c];
    }

    private void ensureCapacity() {
        if (size < capacity) return;
        capacity = grow(capacity);
        for (int c = 0; c < kinds.length; c++) {
            if (ints[c] != null) ints[c] = Arrays.copyOf(ints[c], capacity);
            if (longs[c] != null) longs[c] = Arrays.copyOf(longs[c], capacity);
            if (nulls[c] != null) nulls[c] = Arrays.copyOf(nulls[c], words(capacity));
        }
    }

    /** Switches to boxed rows for good, materializing the rows appended so far. */
    private void fallBack() {
        Row[] out = new Row[Math.max(capacity, size + 1)];
        if (mode == Mode.PRIMITIVE) {
            PrimitiveRows built = buildPrimitive();
            for (int i = 0; i < size; i++) out[i] = built.row(i);
        } else {
            Arrays.fill(out, 0, size, Row.EMPTY);
        }
        rows = out;
        capacity = out.length;
        kinds = null;
        ints = null;
        longs = null;
        nulls = null;
        mode = Mode.BOXED;
    }

    private void appendBoxed(Row row) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, grow(size));
            capacity = rows.length;
        }
        rows[size++] = row;
    }

    /** The column; the builder must not be used afterwards. */
    RowColumn build() {
        return switch (mode) {
            case UNDECIDED, EMPTY -> EmptyRows.INSTANCE;
            case PRIMITIVE -> buildPrimitive();
            case BOXED -> new BoxedRows(BatchBuilder.wasteful(rows.length, size) ? Arrays.copyOf(rows, size) : rows);
        };
    }

    /** The arrays as built, trimmed where much of them is unused; bitmaps only where a NULL is. */
    private PrimitiveRows buildPrimitive() {
        int arity = kinds.length;
        int[][] outInts = new int[arity][];
        long[][] outLongs = new long[arity][];
        long[][] outNulls = new long[arity][];
        boolean trim = BatchBuilder.wasteful(capacity, size);
        for (int c = 0; c < arity; c++) {
            if (ints[c] != null) outInts[c] = trim ? Arrays.copyOf(ints[c], size) : ints[c];
            if (longs[c] != null) outLongs[c] = trim ? Arrays.copyOf(longs[c], size) : longs[c];
            // A column still NULLS is NULL in every row without a bitmap.
            if (kinds[c] != PrimitiveRows.NULLS && nulls[c] != null) {
                outNulls[c] = trim ? Arrays.copyOf(nulls[c], words(size)) : nulls[c];
            }
        }
        return new PrimitiveRows(kinds.clone(), outInts, outLongs, outNulls);
    }

    private static int words(int n) { return (n + 63) >>> 6; }

    private static int grow(int n) {
        long cap = Math.max(8L, (long) n + (n >> 1));
        if (cap > Integer.MAX_VALUE - 16) throw new IllegalStateException("batch too large");
        return (int) cap;
    }
}
