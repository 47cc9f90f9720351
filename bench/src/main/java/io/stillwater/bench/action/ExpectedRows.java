package io.stillwater.bench.action;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answer a query must return, checked inside the timed span while its result is read: every
 * row's values as text (what {@code ResultSet.getString} gives; SQL NULL is {@code null}), in
 * order when {@code ordered}, else as a multiset. A query that answers differently counts as a
 * failed query under the text "wrong result: ...", never as a success and never dropped: a target
 * that answers fast and wrong must not look like an improvement.
 *
 * @param rows expected rows; each row lists its columns' text values
 */
public record ExpectedRows(List<List<String>> rows, boolean ordered) {

    public ExpectedRows {
        List<List<String>> copy = new ArrayList<>();
        for (List<String> r : rows) {
            copy.add(Collections.unmodifiableList(new ArrayList<>(r))); // values may be null
        }
        rows = List.copyOf(copy);
    }

    /** Exactly one row with these column values. */
    public static ExpectedRows row(String... values) {
        return new ExpectedRows(List.of(Arrays.asList(values)), true);
    }

    /**
     * Checks an actual answer.
     *
     * @return empty when it matches, else the text the failure is counted under (bounded in length:
     *     at most three rows of the actual answer are shown, so error texts do not explode into one
     *     key per distinct wrong answer)
     */
    public Optional<String> mismatch(List<List<String>> actual) {
        boolean same;
        if (ordered) {
            same = rows.equals(actual);
        } else {
            same = rows.size() == actual.size() && counts(rows).equals(counts(actual));
        }
        if (same) {
            return Optional.empty();
        }
        return Optional.of("wrong result: expected " + show(rows) + ", got " + show(actual));
    }

    private static Map<List<String>, Integer> counts(List<List<String>> rows) {
        Map<List<String>, Integer> m = new HashMap<>();
        rows.forEach(r -> m.merge(r, 1, Integer::sum));
        return m;
    }

    private static String show(List<List<String>> rows) {
        if (rows.size() <= 3) {
            return rows.size() + " row(s) " + rows;
        }
        return rows.size() + " rows, first " + rows.subList(0, 3);
    }
}
