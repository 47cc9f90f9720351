package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;

/**
 * A row column whose every row is the empty row, as a table's or a default index's values
 * are: no storage per row. Stateless, so one instance serves every batch.
 */
final class EmptyRows implements RowColumn {
    static final EmptyRows INSTANCE = new EmptyRows();

    private EmptyRows() {}

    @Override public Row row(int i) { return Row.EMPTY; }

    /** The empty row sorts before every longer row (a shorter row first on a common prefix). */
    @Override public int compareTo(int i, Row other) { return other.arity() == 0 ? 0 : -1; }

    @Override public Row rowEqualTo(int i, Row probe) { return Row.EMPTY; }
}
