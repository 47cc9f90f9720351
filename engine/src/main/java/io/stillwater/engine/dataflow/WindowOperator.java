package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowCall;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Window functions ({@link io.stillwater.engine.plan.PlanNode.Window}): every input row
 * followed by its function values, computed per partition. State: each partition's
 * accumulated input rows in window order (ties broken by the whole row, so the output is
 * deterministic). When a partition changes, its output before the changes is remembered
 * negated and, at emit, its output after them is added ({@link WindowEvaluator} recomputes
 * the partition from scratch both times): the difference is emitted. A change costs the
 * size of its partition, the price of functions (row_number, running sums) whose every
 * value may move when one row arrives.
 *
 * <p>One-shot reads drive the same operator through {@link Absorbing}: every partition
 * starts empty, so only the final output is computed. Evaluation errors (ntile(0), an
 * aggregate overflow) are the partition's: it then has no rows and one error, retracted
 * the same way when the partition changes.
 *
 * <p>State is touched only by the thread stepping the dataflow (see {@link Operator}).
 */
final class WindowOperator extends Operator implements Absorbing {
    /** A tree entry and its count, beyond the row itself. */
    private static final long ENTRY_BYTES = 64;

    private final int[] partitionKeys;
    private final Comparator<Row> order;
    private final WindowEvaluator evaluator;
    private final HashMap<Row, TreeMap<Row, long[]>> partitions = new HashMap<>();
    /** Partitions changed since the last complete emit (first-change order), with their output before the changes, negated. */
    private final Map<Row, Counts> touched = new LinkedHashMap<>();
    private List<Map.Entry<Row, Counts>> emitting;
    private int emitted;
    /** The rest of a partition's output being emitted in chunks (no retractions to pair it with), else null. */
    private java.util.Iterator<Row> fresh;
    private long stateBytes;

    WindowOperator(int[] partitionKeys, List<SortKey> order, List<WindowCall> calls, List<SqlType> inputTypes,
                   Cancellation cancel) {
        super(cancel);
        this.partitionKeys = partitionKeys.clone();
        this.order = RowOrder.byKeysThenRow(order);
        this.evaluator = new WindowEvaluator(calls, order, inputTypes, cancel);
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        absorb(inputs[0], errors);
        Changes out = new Changes();
        for (Changes c = emit(Integer.MAX_VALUE, errors); c != null; c = emit(Integer.MAX_VALUE, errors)) out.addAll(c);
        return out;
    }

    @Override
    public void absorb(Changes in, Changes errors) {
        long rowBytes = in.isEmpty() ? 0 : HeapEstimate.chunk(in) / in.size();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            Row key = partitionKeys.length == 0 ? Row.EMPTY : r.project(partitionKeys);
            TreeMap<Row, long[]> rows = partitions.get(key);
            if (rows == null) {
                rows = new TreeMap<>(order);
                partitions.put(key, rows);
                stateBytes += HeapEstimate.MAP_ENTRY + HeapEstimate.row(key);
            }
            if (!touched.containsKey(key)) {
                Counts before = new Counts();
                output(rows, before, errors, -1);
                touched.put(key, before);
            }
            long[] c = rows.get(r);
            if (c == null) {
                rows.put(r, c = new long[1]);
                stateBytes += ENTRY_BYTES + rowBytes;
            }
            c[0] += in.diff(i);
            if (c[0] == 0) {
                rows.remove(r);
                stateBytes = Math.max(0, stateBytes - ENTRY_BYTES - rowBytes);
            }
        }
    }

    @Override
    public Changes emit(int max, Changes errors) {
        if (emitting == null) emitting = new ArrayList<>(touched.entrySet());
        if (emitted == emitting.size() && fresh == null) {
            touched.clear();
            emitting = null;
            emitted = 0;
            return null;
        }
        Changes out = new Changes();
        drainFresh(out, max);
        while (emitted < emitting.size() && out.size() < max) {
            cancel.check();
            var p = emitting.get(emitted);
            emitting.set(emitted++, null);
            TreeMap<Row, long[]> rows = partitions.get(p.getKey());
            Counts diff = p.getValue();
            if (diff.isEmpty()) {
                // Nothing to retract (a new partition; every partition of a one-shot read):
                // the output goes out as is, a chunk at a time, without a difference map.
                Row[] now = evaluate(rows, errors, 1);
                fresh = now == null ? null : java.util.Arrays.asList(now).iterator();
                drainFresh(out, max);
            } else {
                output(rows, diff, errors, 1);
                for (var e : diff.entries()) out.add(e.getKey(), e.getValue()[0]);
            }
            if (rows.isEmpty()) {
                partitions.remove(p.getKey());
                stateBytes = Math.max(0, stateBytes - HeapEstimate.MAP_ENTRY - HeapEstimate.row(p.getKey()));
            }
        }
        return out;
    }

    /** Moves up to {@code max - out.size()} rows of the partition being emitted into {@code out}. */
    private void drainFresh(Changes out, int max) {
        if (fresh == null) return;
        while (fresh.hasNext() && out.size() < max) out.add(fresh.next(), 1);
        if (!fresh.hasNext()) fresh = null;
    }

    @Override
    public long stateBytes() { return stateBytes; }

    /** Adds the partition's output, times {@code sign}, to {@code acc}; an evaluation error goes to {@code errors}. */
    private void output(TreeMap<Row, long[]> rows, Counts acc, Changes errors, long sign) {
        Row[] out = evaluate(rows, errors, sign);
        if (out != null) for (Row r : out) acc.update(r, sign);
    }

    /**
     * The partition's output rows (each once per copy), or null when it has none or its
     * functions fail: then the error goes to {@code errors} with {@code sign}.
     */
    private Row[] evaluate(TreeMap<Row, long[]> rows, Changes errors, long sign) {
        List<Row> sorted = new ArrayList<>(rows.size());
        for (var e : rows.entrySet()) {
            for (long k = e.getValue()[0]; k > 0; k--) sorted.add(e.getKey());
        }
        if (sorted.isEmpty()) return null;
        try {
            return evaluator.evaluate(sorted.toArray(Row[]::new));
        } catch (SqlException e) {
            errors.add(errorRow(e), sign);
            return null;
        }
    }
}
