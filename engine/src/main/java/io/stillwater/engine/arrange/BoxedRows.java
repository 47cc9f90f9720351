package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;

/** The general row column: one {@link Row} per position (rows that fit no compact form). */
final class BoxedRows implements RowColumn {
    private final Row[] rows;

    /** Takes ownership of {@code rows}; only the prefix the batch counts is meaningful. */
    BoxedRows(Row[] rows) { this.rows = rows; }

    Row get(int i) { return rows[i]; }

    @Override public Row row(int i) { return rows[i]; }

    @Override public int compareTo(int i, Row other) { return RowOrder.compare(rows[i], other); }

    @Override public Row rowEqualTo(int i, Row probe) { return rows[i]; }
}
