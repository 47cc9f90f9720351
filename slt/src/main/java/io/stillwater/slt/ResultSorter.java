package io.stillwater.slt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Applies a sort mode to rendered rows and flattens them. Strings compare by Unicode code
 * point, which is the byte order of their UTF-8 encoding: the order of SQLite's strcmp and of
 * Rust's string comparison in Materialize's runner.
 */
public final class ResultSorter {
    /** Code-point (= UTF-8 byte) order. */
    public static final Comparator<String> VALUE_ORDER = ResultSorter::compareCodePoints;

    private static final Comparator<List<String>> ROW_ORDER = (a, b) -> {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            int c = compareCodePoints(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private ResultSorter() {}

    /** Returns the values of {@code rows} in the order the sort mode defines. */
    public static List<String> sort(List<List<String>> rows, SortMode mode) {
        List<List<String>> ordered = new ArrayList<>(rows);
        if (mode == SortMode.ROWSORT) {
            ordered.sort(ROW_ORDER);
        }
        List<String> values = new ArrayList<>();
        ordered.forEach(values::addAll);
        if (mode == SortMode.VALUESORT) {
            values.sort(VALUE_ORDER);
        }
        return values;
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
