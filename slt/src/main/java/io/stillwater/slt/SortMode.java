package io.stillwater.slt;

/** How a query's rendered values are ordered before comparison and hashing. */
public enum SortMode {
    /** Compare in the order the target returned them. */
    NOSORT,
    /** Sort rows (value by value, by code point) before flattening. */
    ROWSORT,
    /** Flatten, then sort every value on its own. */
    VALUESORT
}
