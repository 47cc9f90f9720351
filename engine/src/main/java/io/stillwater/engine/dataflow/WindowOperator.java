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
 * deterministic) and, in a maintained dataflow, the output it last emitted. When a partition
 * changes, that output is remembered negated and, at emit, the output after the changes
 * ({@link WindowEvaluator} recomputes the partition from scratch) is added: the difference
 * is emitted. A change costs the
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
    /** Maintained dataflows only: each non-empty partition's last emitted output. */
    private final HashMap<Row, Output> outputs = new HashMap<>();
    /** Set by {@link #step}: a maintained dataflow, whose partitions' outputs are kept for retraction. */
    private boolean maintained;
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
        maintained = true;
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
                Output last = outputs.get(key);
                if (last != null) last.addTo(before, errors, -1); // what this partition emitted last, retracted
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
            Output now = evaluate(rows);
            remember(p.getKey(), now);
            if (diff.isEmpty()) {
                // Nothing to retract (a new partition; every partition of a one-shot read):
                // the output goes out as is, a chunk at a time, without a difference map.
                if (now.error() != null) errors.add(now.error(), 1);
                else if (now.rows().length > 0) fresh = java.util.Arrays.asList(now.rows()).iterator();
                drainFresh(out, max);
            } else {
                now.addTo(diff, errors, 1);
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

    /** A partition's output: its rows (each once per copy), or the error its functions failed with. */
    private record Output(Row[] rows, Row error) {
        static final Output NONE = new Output(new Row[0], null);

        /** Adds the output, times {@code sign}, to {@code acc}, or its error to {@code errors}. */
        void addTo(Counts acc, Changes errors, long sign) {
            if (error != null) errors.add(error, sign);
            for (Row r : rows) acc.update(r, sign);
        }

        long bytes() {
            long b = HeapEstimate.MAP_ENTRY;
            for (Row r : rows) b += HeapEstimate.ENTRY + HeapEstimate.row(r);
            return b;
        }
    }

    /**
     * Keeps what a maintained partition emitted, so the next change retracts it without
     * recomputing it (the price: the output's size again in memory). One-shot reads never
     * retract, and keep nothing.
     */
    private void remember(Row key, Output now) {
        if (!maintained) return;
        Output old = now.rows().length == 0 && now.error() == null ? outputs.remove(key) : outputs.put(key, now);
        if (old != null) stateBytes = Math.max(0, stateBytes - old.bytes());
        if (outputs.get(key) == now) stateBytes += now.bytes();
    }

    /** Computes the partition's output from its rows. */
    private Output evaluate(TreeMap<Row, long[]> rows) {
        List<Row> sorted = new ArrayList<>(rows.size());
        for (var e : rows.entrySet()) {
            for (long k = e.getValue()[0]; k > 0; k--) sorted.add(e.getKey());
        }
        if (sorted.isEmpty()) return Output.NONE;
        try {
            return new Output(evaluator.evaluate(sorted.toArray(Row[]::new)), null);
        } catch (SqlException e) {
            return new Output(new Row[0], errorRow(e));
        }
    }
}
