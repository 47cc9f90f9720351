package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;

/**
 * The rows of one of a batch's two row columns (its keys or its values), stored as compactly
 * as their datums allow. {@link RowColumnBuilder} picks the variant when a batch is built:
 *
 * <ul>
 *   <li>{@link EmptyRows}: every row is the empty row (a default index's values); no storage
 *       per row at all;
 *   <li>{@link PrimitiveRows}: every row has the same arity and each column holds only
 *       {@code Integer}s or only {@code Long}s (and NULLs): one {@code int[]} or {@code long[]}
 *       per column and a NULL bitmap, no object per row or per datum;
 *   <li>{@link BoxedRows}: anything else, one {@link Row} reference per row (the general
 *       fallback, the layout every batch had before).
 * </ul>
 *
 * <p>The variants are indistinguishable through this interface: {@link #row} materializes an
 * equal row with datums of the same classes, and the comparisons agree with {@link
 * Row#compareTo} (the storage order, {@code Datums.ORDER} column by column) without
 * materializing anything where both sides are primitive. Immutable once built, so any thread
 * may read a column.
 */
sealed interface RowColumn permits BoxedRows, EmptyRows, PrimitiveRows {
    /**
     * The row at {@code i}. {@link BoxedRows} and {@link EmptyRows} return a stored row;
     * {@link PrimitiveRows} allocates a new one per call (callers that revisit a position cache
     * it, as {@link BatchCursor} does).
     */
    Row row(int i);

    /** Sign of the comparison of the row at {@code i} with {@code other}, in storage order. */
    int compareTo(int i, Row other);

    /**
     * The row at {@code i}, given a {@code probe} known to compare equal to it: the probe itself
     * when it is indistinguishable from the stored row (same arity, same datum classes), so a
     * point lookup's hit need not materialize a copy of the key it was given.
     */
    Row rowEqualTo(int i, Row probe);

    /** Sign of the comparison of {@code x}'s row {@code i} with {@code y}'s row {@code j}. */
    static int compare(RowColumn x, int i, RowColumn y, int j) {
        if (x instanceof PrimitiveRows p && y instanceof PrimitiveRows q) return p.compareTo(i, q, j);
        if (y instanceof BoxedRows by) return x.compareTo(i, by.get(j));
        if (y instanceof EmptyRows) return x.compareTo(i, Row.EMPTY);
        // y is primitive and x boxed or empty: compare from y's side and flip.
        Row xr = x instanceof BoxedRows bx ? bx.get(i) : Row.EMPTY;
        return -Integer.signum(y.compareTo(j, xr));
    }
}
