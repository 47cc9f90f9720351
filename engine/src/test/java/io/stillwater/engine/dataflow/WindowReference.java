package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowCall;
import io.stillwater.engine.plan.WindowFrame;
import io.stillwater.engine.types.Datums;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * The window functions of {@link PlanNode.Window} written the obvious way, as the model
 * for {@link WindowOperator}: every row's frame is decided row by row from the frame
 * clause's definition (no sliding, no binary search), every aggregate is recomputed over
 * its frame by {@link Reference}, ranks are counted. A partition whose functions fail
 * adds its error to the reference's errors and has no rows.
 */
final class WindowReference {
    private final Reference ref;

    WindowReference(Reference ref) { this.ref = ref; }

    List<Row> eval(PlanNode.Window w, List<Row> input) {
        TreeMap<Row, List<Row>> partitions = new TreeMap<>();
        for (Row r : input) partitions.computeIfAbsent(r.project(w.partitionKeys()), k -> new ArrayList<>()).add(r);
        Comparator<Row> total = RowOrder.byKeysThenRow(w.order());
        Comparator<Row> peers = RowOrder.byKeys(w.order());
        List<Row> out = new ArrayList<>();
        for (List<Row> p : partitions.values()) {
            List<Row> rows = new ArrayList<>(p);
            rows.sort(total);
            List<Row> partOut = new ArrayList<>();
            try {
                for (int i = 0; i < rows.size(); i++) {
                    List<Object> vals = new ArrayList<>(rows.get(i).asList());
                    for (WindowCall c : w.calls()) vals.add(value(c, w, rows, i, peers));
                    partOut.add(Row.of(vals));
                }
                out.addAll(partOut);
            } catch (SqlException e) {
                ref.errors.add(e.toEvalError());
            }
        }
        return out;
    }

    private Object value(WindowCall c, PlanNode.Window w, List<Row> rows, int i, Comparator<Row> peers) {
        int n = rows.size();
        Row cur = rows.get(i);
        long before = 0, notAfter = 0;
        for (Row r : rows) {
            if (peers.compare(r, cur) < 0) before++;
            if (peers.compare(r, cur) <= 0) notAfter++;
        }
        switch (c.func()) {
            case ROW_NUMBER: return (long) i + 1;
            case RANK: return before + 1;
            case DENSE_RANK: return group(rows, i, peers) + 1L;
            case PERCENT_RANK: return n == 1 ? 0.0 : (double) before / (n - 1);
            case CUME_DIST: return (double) notAfter / n;
            case NTILE: {
                Object b = cur.get(c.args().get(0));
                if (b == null) return null;
                long buckets = ((Number) b).longValue();
                if (buckets <= 0) {
                    throw new SqlException(io.stillwater.engine.error.SqlState.INVALID_ARGUMENT_FOR_NTILE,
                            "argument of ntile must be greater than zero");
                }
                // PostgreSQL's way: fill buckets in order, the first n % buckets of them one row larger.
                long per = n / buckets, extra = n % buckets, bucket = 1, inBucket = 0;
                for (int j = 0; j <= i; j++) {
                    long size = per + (bucket <= extra ? 1 : 0);
                    if (inBucket == size && size > 0) { bucket++; inBucket = 0; }
                    inBucket++;
                }
                return (int) bucket;
            }
            case LAG: case LEAD: {
                long off = c.args().size() > 1 ? ((Number) cur.get(c.args().get(1))).longValue() : 1;
                long j = c.func() == io.stillwater.engine.plan.WindowFunc.LAG ? i - off : i + off;
                if (j >= 0 && j < n) return rows.get((int) j).get(c.args().get(0));
                return c.args().size() > 2 ? cur.get(c.args().get(2)) : null;
            }
            default:
                break;
        }
        List<Row> frame = new ArrayList<>();
        for (int j = 0; j < n; j++) if (inFrame(c.frame(), w.order(), rows, i, j, peers)) frame.add(rows.get(j));
        return switch (c.func()) {
            case FIRST_VALUE -> frame.isEmpty() ? null : frame.get(0).get(c.args().get(0));
            case LAST_VALUE -> frame.isEmpty() ? null : frame.get(frame.size() - 1).get(c.args().get(0));
            case NTH_VALUE -> {
                int k = ((Number) cur.get(c.args().get(1))).intValue();
                yield k <= frame.size() ? frame.get(k - 1).get(c.args().get(0)) : null;
            }
            default -> ref.aggregate(c.aggregate(), frame, w.input());
        };
    }

    /** The index of row i's peer group: how many distinct order values come before it. */
    private static int group(List<Row> rows, int i, Comparator<Row> peers) {
        int g = 0;
        for (int j = 1; j <= i; j++) if (peers.compare(rows.get(j - 1), rows.get(j)) != 0) g++;
        return g;
    }

    /** Is row j in row i's frame, by the frame clause's definition? */
    private static boolean inFrame(WindowFrame f, List<SortKey> order, List<Row> rows, int i, int j, Comparator<Row> peers) {
        boolean peer = peers.compare(rows.get(i), rows.get(j)) == 0;
        boolean excluded = switch (f.exclusion()) {
            case NO_OTHERS -> false;
            case CURRENT_ROW -> i == j;
            case GROUP -> peer;
            case TIES -> peer && i != j;
        };
        return !excluded && satisfies(f.start(), true, f, order, rows, i, j, peers)
                && satisfies(f.end(), false, f, order, rows, i, j, peers);
    }

    private static boolean satisfies(WindowFrame.Bound b, boolean start, WindowFrame f, List<SortKey> order,
                                     List<Row> rows, int i, int j, Comparator<Row> peers) {
        switch (b.kind()) {
            case UNBOUNDED_PRECEDING: return start;
            case UNBOUNDED_FOLLOWING: return !start;
            default: break;
        }
        long k = b.offset() == null ? 0 : new BigDecimal(b.offset().toString()).longValue();
        long signed = b.kind() == WindowFrame.BoundKind.PRECEDING ? -k : k;
        switch (f.unit()) {
            case ROWS: return start ? j >= i + signed : j <= i + signed;
            case GROUPS: {
                long gi = group(rows, i, peers), gj = group(rows, j, peers);
                return start ? gj >= gi + signed : gj <= gi + signed;
            }
            default: {
                int cmp;
                SortKey key = order.isEmpty() ? null : order.get(0);
                Object vi = key == null ? null : rows.get(i).get(key.column());
                if (b.kind() == WindowFrame.BoundKind.CURRENT_ROW || vi == null) {
                    cmp = peers.compare(rows.get(j), rows.get(i));
                } else {
                    Object vj = rows.get(j).get(key.column());
                    long target = ((Number) vi).longValue() + (key.descending() ? -signed : signed);
                    if (vj == null) cmp = key.nullsFirst() ? -1 : 1;
                    else cmp = key.descending() ? -Datums.compare(vj, target) : Datums.compare(vj, target);
                }
                return start ? cmp >= 0 : cmp <= 0;
            }
        }
    }
}
