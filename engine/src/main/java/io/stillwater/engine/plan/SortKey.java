package io.stillwater.engine.plan;

/** One ORDER BY key: a column of the input, direction and NULL placement. */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
    /** PostgreSQL's default: NULLs sort as if larger than every value. */
    public static SortKey asc(int column) { return new SortKey(column, false, false); }

    public static SortKey desc(int column) { return new SortKey(column, true, true); }
}
