package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowFrame;
import io.stillwater.engine.plan.WindowFrame.Bound;
import io.stillwater.engine.types.Datums;
import java.math.BigDecimal;

/**
 * The frame of every row of one sorted partition, as half-open position ranges
 * {@code [start(i), end(i))}, with PostgreSQL's rules: ROWS counts rows, GROUPS counts
 * peer groups, RANGE compares the single ORDER BY value with the current row's plus or
 * minus the offset (a NULL current value's frame bound is its peer group's). CURRENT ROW
 * in RANGE and GROUPS mode means the current row's peer group.
 *
 * <p>Invariant the aggregates rely on: {@code start} and {@code end} never decrease as
 * {@code i} grows, and {@code start(i) <= end(i)} (an empty frame is clamped to
 * {@code [start, start)}), so a frame slides forward and an accumulator can follow it by
 * adding the rows that enter and retracting the rows that leave.
 */
final class WindowFrames {
    private final WindowFrame frame;
    private final Peers peers;
    private final Row[] rows;
    /** The RANGE-with-offset key (the single ORDER BY column), else null. */
    private final SortKey rangeKey;

    /** The peer groups of a sorted partition: group index, start and end of every row's group. */
    record Peers(int[] group, int[] groupStart, int[] groupEnd, int[] startOfGroup) {
        int groups() { return startOfGroup.length; }
    }

    WindowFrames(WindowFrame frame, Peers peers, Row[] rows, SortKey rangeKey) {
        this.frame = frame;
        this.peers = peers;
        this.rows = rows;
        this.rangeKey = rangeKey;
    }

    int start(int i) {
        return Math.min(bound(frame.start(), i, true), rows.length);
    }

    int end(int i) {
        return Math.max(Math.min(bound(frame.end(), i, false), rows.length), start(i));
    }

    /** Is position {@code j} excluded from row {@code i}'s frame by its EXCLUDE clause? */
    boolean excluded(int j, int i) {
        return switch (frame.exclusion()) {
            case NO_OTHERS -> false;
            case CURRENT_ROW -> j == i;
            case GROUP -> peers.group()[j] == peers.group()[i];
            case TIES -> j != i && peers.group()[j] == peers.group()[i];
        };
    }

    int groupStart(int i) { return peers.groupStart()[i]; }

    int groupEnd(int i) { return peers.groupEnd()[i]; }

    boolean excludes() { return frame.exclusion() != WindowFrame.Exclusion.NO_OTHERS; }

    /** The position where the frame starts ({@code isStart}) or the position after its end. */
    private int bound(Bound b, int i, boolean isStart) {
        int n = rows.length;
        return switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> 0;
            case UNBOUNDED_FOLLOWING -> n;
            case CURRENT_ROW -> switch (frame.unit()) {
                case ROWS -> isStart ? i : i + 1;
                case RANGE, GROUPS -> isStart ? peers.groupStart()[i] : peers.groupEnd()[i];
            };
            case PRECEDING, FOLLOWING -> {
                boolean preceding = b.kind() == WindowFrame.BoundKind.PRECEDING;
                yield switch (frame.unit()) {
                    case ROWS -> {
                        long k = ((Number) b.offset()).longValue();
                        long pos = preceding ? (long) i - k : (long) i + k;
                        yield clamp(isStart ? pos : pos + 1, n);
                    }
                    case GROUPS -> {
                        long k = ((Number) b.offset()).longValue();
                        long g = preceding ? (long) peers.group()[i] - k : (long) peers.group()[i] + k;
                        if (g < 0) yield 0;
                        if (g >= peers.groups()) yield n;
                        int gi = (int) g;
                        yield isStart ? peers.startOfGroup()[gi]
                                : (gi + 1 < peers.groups() ? peers.startOfGroup()[gi + 1] : n);
                    }
                    case RANGE -> range(b, preceding, i, isStart);
                };
            }
        };
    }

    private static int clamp(long pos, int n) {
        return (int) Math.max(0, Math.min(pos, n));
    }

    /** RANGE offset: the first position at or after the target value (start) or past it (end). */
    private int range(Bound b, boolean preceding, int i, boolean isStart) {
        Object v = rows[i].get(rangeKey.column());
        if (v == null) return isStart ? peers.groupStart()[i] : peers.groupEnd()[i];
        // Preceding means toward the start of the sort order: smaller values ascending, larger descending.
        boolean subtract = preceding != rangeKey.descending();
        Object target = shift(v, b.offset(), subtract);
        int lo = 0;
        int hi = rows.length;
        while (lo < hi) { // first position whose value is past the target (end) or not before it (start)
            int mid = (lo + hi) >>> 1;
            int c = compareToTarget(rows[mid].get(rangeKey.column()), target);
            if (isStart ? c >= 0 : c > 0) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    /** The sort-order comparison of a row's value with the target value (NULLs where the key puts them). */
    private int compareToTarget(Object value, Object target) {
        if (value == null) return rangeKey.nullsFirst() ? -1 : 1;
        int c = Datums.compare(value, target);
        return rangeKey.descending() ? -c : c;
    }

    private static Object shift(Object v, Object offset, boolean subtract) {
        if (v instanceof Double || v instanceof Float || offset instanceof Double || offset instanceof Float) {
            double x = ((Number) v).doubleValue();
            double k = ((Number) offset).doubleValue();
            return subtract ? x - k : x + k;
        }
        BigDecimal x = v instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) v).longValue());
        BigDecimal k = offset instanceof BigDecimal d ? d : new BigDecimal(offset.toString());
        return subtract ? x.subtract(k) : x.add(k);
    }

    /** The peer groups of {@code rows} (sorted), peers being rows equal on every ORDER BY key. */
    static Peers peers(Row[] rows, SortKey[] order) {
        int n = rows.length;
        int[] group = new int[n];
        int[] groupStart = new int[n];
        int[] groupEnd = new int[n];
        int groups = 0;
        int[] starts = new int[Math.max(n, 1)];
        for (int i = 0; i < n; i++) {
            boolean newGroup = i == 0 || RowOrder.compare(rows[i - 1], rows[i], order) != 0;
            if (newGroup) starts[groups++] = i;
            group[i] = groups - 1;
            groupStart[i] = starts[groups - 1];
        }
        for (int i = n - 1; i >= 0; i--) {
            groupEnd[i] = i == n - 1 || group[i + 1] != group[i] ? i + 1 : groupEnd[i + 1];
        }
        return new Peers(group, groupStart, groupEnd, java.util.Arrays.copyOf(starts, groups));
    }
}
