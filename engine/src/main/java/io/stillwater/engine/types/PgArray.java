package io.stillwater.engine.types;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The value of an {@link TypeKind#ARRAY} datum: an immutable list of elements, each
 * {@code null} (SQL NULL) or a value of the element type's Java class. A
 * multi-dimensional array is an array whose elements are the {@code PgArray}s of its
 * first dimension (all of one length, as PostgreSQL requires); its SQL type is still the
 * element type's array type. Lower bounds are always 1.
 *
 * <p>Equality, hashing and ordering are PostgreSQL's for arrays (btree
 * {@code array_ops}): element by element, a NULL element equal to a NULL and greater
 * than any value (so {@code ARRAY[1,NULL] = ARRAY[1,NULL]} is true), then the shorter
 * array first. Element comparison is {@link Datums#compare} (numbers numerically,
 * {@code 1.0} equal to {@code 1.00}), and {@link #hashCode} agrees with it.
 */
public final class PgArray implements Comparable<PgArray> {
    private static final PgArray EMPTY = new PgArray(new Object[0]);

    private final Object[] elements;

    private PgArray(Object[] elements) {
        this.elements = elements;
    }

    public static PgArray empty() { return EMPTY; }

    /** An array of {@code elements} (copied; nulls allowed). */
    public static PgArray of(List<?> elements) {
        return elements.isEmpty() ? EMPTY : new PgArray(elements.toArray());
    }

    public static PgArray of(Object... elements) {
        return elements.length == 0 ? EMPTY : new PgArray(elements.clone());
    }

    /** The number of elements of the first dimension. */
    public int size() { return elements.length; }

    public boolean isEmpty() { return elements.length == 0; }

    /** Element {@code i}, 0-based. */
    public Object get(int i) { return elements[i]; }

    /** The elements of the first dimension, unmodifiable. */
    public List<Object> elements() { return Collections.unmodifiableList(Arrays.asList(elements)); }

    /** Whether the elements are arrays themselves (a multi-dimensional array). */
    public boolean isNested() { return elements.length > 0 && elements[0] instanceof PgArray; }

    /** The scalar elements in storage order, flattening nested dimensions. */
    public List<Object> flatten() {
        if (!isNested()) return elements();
        List<Object> out = new ArrayList<>();
        for (Object e : elements) {
            if (e instanceof PgArray a) out.addAll(a.flatten());
            else out.add(e);
        }
        return out;
    }

    /** The lengths of each dimension ({@code [2, 3]} for {@code {{1,2,3},{4,5,6}}}); empty for an empty array. */
    public int[] dimensions() {
        if (elements.length == 0) return new int[0];
        List<Integer> dims = new ArrayList<>();
        Object cur = this;
        while (cur instanceof PgArray a && a.size() > 0) {
            dims.add(a.size());
            cur = a.get(0);
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    /** PostgreSQL's element order: a NULL element is greater than any value. */
    public static int compareElements(Object a, Object b) {
        if (a == null) return b == null ? 0 : 1;
        if (b == null) return -1;
        return Datums.compare(a, b);
    }

    @Override
    public int compareTo(PgArray o) {
        int n = Math.min(elements.length, o.elements.length);
        for (int i = 0; i < n; i++) {
            int c = compareElements(elements[i], o.elements[i]);
            if (c != 0) return c;
        }
        return Integer.compare(elements.length, o.elements.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PgArray a && compareTo(a) == 0;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (Object e : elements) h = 31 * h + (e == null ? 7 : Datums.hash(e));
        return h;
    }

    /** A debugging form; the SQL text form is {@link ArrayText#format}. */
    @Override
    public String toString() { return Arrays.deepToString(elements); }
}
