package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;

/** Storage order of rows, with a shortcut for the same object (common after merges). */
final class RowOrder {
    private RowOrder() {}

    static int compare(Row a, Row b) {
        return a == b ? 0 : a.compareTo(b);
    }
}
