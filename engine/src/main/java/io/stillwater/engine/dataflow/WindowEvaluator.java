package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowCall;
import io.stillwater.engine.plan.WindowFunc;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Computes the window functions of one partition from scratch: given the partition's rows
 * in window order (duplicates repeated), every row followed by its function values. Pure:
 * the same rows give the same output, which is what lets {@link WindowOperator} retract a
 * partition's old output by recomputing it.
 *
 * <p>Cost: linear in the partition for ranking, lag/lead and frames that slide (each
 * aggregate follows its frame with one accumulator, adding entering and retracting leaving
 * rows); plus the excluded rows per row with EXCLUDE; RANGE offsets add a binary search per row.
 */
final class WindowEvaluator {
    private final List<WindowCall> calls;
    private final SortKey[] order;
    private final List<Supplier<Accumulator>> aggregates = new ArrayList<>();
    private final Cancellation cancel;

    WindowEvaluator(List<WindowCall> calls, List<SortKey> order, List<SqlType> inputTypes, Cancellation cancel) {
        this.calls = List.copyOf(calls);
        this.order = order.toArray(SortKey[]::new);
        this.cancel = cancel;
        for (WindowCall c : calls) {
            aggregates.add(c.func() == WindowFunc.AGGREGATE ? Accumulators.factory(c.aggregate(), inputTypes) : null);
        }
    }

    /**
     * The output rows of a partition ({@code rows} sorted, non-empty).
     *
     * @throws SqlException an evaluation error (the partition then has no output)
     */
    Row[] evaluate(Row[] rows) {
        int n = rows.length;
        WindowFrames.Peers peers = WindowFrames.peers(rows, order);
        Object[][] values = new Object[n][calls.size()];
        for (int c = 0; c < calls.size(); c++) {
            WindowCall call = calls.get(c);
            WindowFrames frames = call.func().usesFrame()
                    ? new WindowFrames(call.frame(), peers, rows, order.length == 0 ? null : order[0]) : null;
            switch (call.func()) {
                case AGGREGATE -> aggregate(rows, frames, aggregates.get(c).get(), values, c);
                case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> frameValue(call, rows, frames, values, c);
                default -> {
                    for (int i = 0; i < n; i++) {
                        if ((i & (Operator.CHECK_EVERY - 1)) == 0) cancel.check();
                        values[i][c] = ranking(call, rows, peers, i);
                    }
                }
            }
        }
        Row[] out = new Row[n];
        for (int i = 0; i < n; i++) out[i] = rows[i].concat(Row.wrap(values[i]));
        return out;
    }

    private static Object ranking(WindowCall call, Row[] rows, WindowFrames.Peers peers, int i) {
        int n = rows.length;
        return switch (call.func()) {
            case ROW_NUMBER -> number(i + 1L, call.type());
            case RANK -> number(peers.groupStart()[i] + 1L, call.type());
            case DENSE_RANK -> number(peers.group()[i] + 1L, call.type());
            case PERCENT_RANK -> n <= 1 ? 0.0 : (double) peers.groupStart()[i] / (n - 1);
            case CUME_DIST -> (double) peers.groupEnd()[i] / n;
            case NTILE -> {
                Object b = rows[i].get(call.args().get(0));
                if (b == null) yield null;
                long buckets = ((Number) b).longValue();
                if (buckets <= 0) {
                    throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_NTILE, "argument of ntile must be greater than zero");
                }
                yield number(ntile(i, n, buckets), call.type());
            }
            case LAG, LEAD -> {
                long offset = 1;
                if (call.args().size() > 1) {
                    Object o = rows[i].get(call.args().get(1));
                    if (o == null) yield null;
                    offset = ((Number) o).longValue();
                }
                long j = call.func() == WindowFunc.LAG ? i - offset : i + offset;
                if (j >= 0 && j < n) yield rows[(int) j].get(call.args().get(0));
                yield call.args().size() > 2 ? rows[i].get(call.args().get(2)) : null;
            }
            default -> throw new IllegalStateException("not a ranking function: " + call.func());
        };
    }

    /** PostgreSQL's ntile: {@code n / buckets} rows per bucket, the first {@code n % buckets} buckets one more. */
    static long ntile(int i, int n, long buckets) {
        if (buckets >= n) return i + 1L;
        long per = n / buckets;
        long bigger = n % buckets; // buckets with per + 1 rows
        long inBigger = bigger * (per + 1);
        return i < inBigger ? i / (per + 1) + 1 : bigger + (i - inBigger) / per + 1;
    }

    /** first_value / last_value / nth_value over each row's frame, skipping excluded rows. */
    private void frameValue(WindowCall call, Row[] rows, WindowFrames frames, Object[][] values, int c) {
        int arg = call.args().get(0);
        for (int i = 0; i < rows.length; i++) {
            if ((i & (Operator.CHECK_EVERY - 1)) == 0) cancel.check();
            int s = frames.start(i);
            int e = frames.end(i);
            Object v = null;
            switch (call.func()) {
                case FIRST_VALUE -> {
                    for (int j = s; j < e; j++) if (!frames.excluded(j, i)) { v = rows[j].get(arg); break; }
                }
                case LAST_VALUE -> {
                    for (int j = e - 1; j >= s; j--) if (!frames.excluded(j, i)) { v = rows[j].get(arg); break; }
                }
                default -> {
                    Object nth = rows[i].get(call.args().get(1));
                    if (nth == null) break;
                    long k = ((Number) nth).longValue();
                    if (k <= 0) {
                        throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_NTH_VALUE,
                                "argument of nth_value must be greater than zero");
                    }
                    for (int j = s; j < e; j++) {
                        if (frames.excluded(j, i)) continue;
                        if (--k == 0) { v = rows[j].get(arg); break; }
                    }
                }
            }
            values[i][c] = v;
        }
    }

    /**
     * An aggregate over each row's frame: one accumulator holds the rows of {@code [from, to)}
     * and slides forward with the frame; excluded rows are retracted for the one result.
     */
    private static void aggregate(Row[] rows, WindowFrames frames, Accumulator acc, Object[][] values, int c) {
        int from = 0;
        int to = 0;
        Object last = null;
        boolean fresh = false; // last holds the result for [from, to) without exclusions
        for (int i = 0; i < rows.length; i++) {
            int s = frames.start(i);
            int e = frames.end(i);
            for (; to < e; to++) { acc.add(rows[to], 1); fresh = false; }
            for (; from < s; from++) { acc.add(rows[from], -1); fresh = false; }
            if (!frames.excludes()) {
                if (!fresh) {
                    last = acc.result();
                    fresh = true;
                }
                values[i][c] = last;
                continue;
            }
            // Only the current row's peers can be excluded: look at them, not the whole frame.
            List<Integer> out = new ArrayList<>();
            int lo = Math.max(s, frames.groupStart(i));
            int hi = Math.min(e, frames.groupEnd(i));
            for (int j = lo; j < hi; j++) if (frames.excluded(j, i)) out.add(j);
            for (int j : out) acc.add(rows[j], -1);
            values[i][c] = acc.result();
            for (int j : out) acc.add(rows[j], 1);
        }
    }

    private static Object number(long v, SqlType type) {
        return switch (type.kind()) {
            case INTEGER -> (int) v;
            case SMALLINT -> (short) v;
            case BIGINT -> v;
            case DOUBLE -> (double) v;
            default -> type.kind() == TypeKind.NUMERIC ? java.math.BigDecimal.valueOf(v) : v;
        };
    }
}
