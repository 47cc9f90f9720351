package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import io.stillwater.engine.memory.HeapEstimate;

/**
 * GROUP BY with aggregates. Output rows are the group key columns followed by one column
 * per aggregate. State per group: its row count, one {@link Accumulator} per aggregate,
 * and the output it last emitted (a row, or an error when an aggregate failed, e.g. a
 * scalar subquery returning two rows). At each step only groups with changes are
 * recomputed; a group whose output changed retracts the old row and inserts the new one.
 *
 * <p>Without group keys this is SQL's global aggregate: exactly one output row at every
 * time, including over empty input (count 0, other aggregates NULL), so the first step
 * emits it even when there is no input yet.
 */
final class ReduceOperator extends Operator implements Absorbing {
    /** Estimated heap bytes of one value an accumulator keeps (a tree entry, its count and the boxed value). */
    private static final long VALUE_BYTES = 80;

    private static final class Group {
        final Row key;
        final Accumulator[] accs;
        long rows;
        boolean touched;
        Row out;
        EvalError error;
        /** Estimated heap bytes of the group itself, and the values its accumulators keep. */
        long bytes;
        long entries;
        long chunk;

        Group(Row key, Accumulator[] accs) {
            this.key = key;
            this.accs = accs;
        }
    }

    private final int[] groupKeys;
    private final List<Supplier<Accumulator>> factories;
    private final boolean global;
    private final HashMap<Row, Group> groups = new HashMap<>();
    /** Groups whose input changed since the last complete emit, in first-touch order. */
    private final List<Group> touched = new ArrayList<>();
    /** How many of {@link #touched} the current emit has done. */
    private int emitted;
    private boolean started;
    /** Estimated heap bytes of {@link #groups}. */
    private long stateBytes;
    /** Bumped per absorbed chunk: a group's {@code chunk} mark says whether this chunk touched it already. */
    private long chunkSeq;

    ReduceOperator(int[] groupKeys, List<Supplier<Accumulator>> factories, Cancellation cancel) {
        super(cancel);
        this.groupKeys = groupKeys.clone();
        this.factories = List.copyOf(factories);
        this.global = groupKeys.length == 0;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        absorb(inputs[0], errors);
        Changes out = emit(Integer.MAX_VALUE, errors);
        emit(Integer.MAX_VALUE, errors); // completes the round (returns null)
        return out == null ? Changes.empty() : out;
    }

    /** The global aggregate has its row from the first step on, even over empty input. */
    private void start() {
        if (started) return;
        started = true;
        if (global) touch(Row.EMPTY);
    }

    @Override
    public void absorb(Changes in, Changes errors) {
        start();
        long chunk = ++chunkSeq;
        List<Group> changed = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            long d = in.diff(i);
            Group g = touch(global ? Row.EMPTY : r.project(groupKeys));
            if (g.chunk != chunk) {
                g.chunk = chunk;
                changed.add(g);
            }
            g.rows += d;
            for (Accumulator a : g.accs) a.add(r, d);
        }
        // Values that accumulators keep (min/max, string_agg, DISTINCT, ...) grow the state.
        for (Group g : changed) {
            long entries = 0;
            for (Accumulator a : g.accs) entries += a.entries();
            stateBytes += (entries - g.entries) * VALUE_BYTES;
            g.entries = entries;
        }
    }

    @Override
    public Changes emit(int max, Changes errors) {
        start();
        if (emitted == touched.size()) {
            touched.clear();
            emitted = 0;
            return null;
        }
        int end = (int) Math.min(touched.size(), (long) emitted + Math.max(1, max / 2));
        Changes out = new Changes((end - emitted) * 2);
        for (int i = emitted; i < end; i++) {
            tick(i);
            Group g = touched.get(i);
            touched.set(i, null); // emitted groups are not kept alive by the list
            g.touched = false;
            Row newOut = null;
            EvalError newError = null;
            if (global || g.rows != 0) {
                try {
                    newOut = output(g);
                } catch (SqlException e) {
                    newError = e.toEvalError();
                }
            } else {
                groups.remove(g.key);
                stateBytes -= g.bytes + g.entries * VALUE_BYTES;
            }
            if (!sameValues(g.out, newOut)) {
                if (g.out != null) out.add(g.out, -1);
                if (newOut != null) out.add(newOut, 1);
                g.out = newOut;
            }
            if (!Objects.equals(g.error, newError)) {
                if (g.error != null) errors.add(errorRow(g.error), -1);
                if (newError != null) errors.add(errorRow(newError), 1);
                g.error = newError;
            }
        }
        emitted = end;
        return out;
    }

    @Override
    public long stateBytes() { return stateBytes; }

    private Group touch(Row key) {
        Group g = groups.get(key);
        if (g == null) {
            Accumulator[] accs = new Accumulator[factories.size()];
            for (int i = 0; i < accs.length; i++) accs[i] = factories.get(i).get();
            g = new Group(key, accs);
            // the map entry, the group, its accumulators, its key and the output row it keeps
            g.bytes = HeapEstimate.MAP_ENTRY + 64 + 32L * accs.length + 2 * HeapEstimate.row(key) + 16L * accs.length;
            stateBytes += g.bytes;
            groups.put(key, g);
        }
        if (!g.touched) {
            g.touched = true;
            touched.add(g);
        }
        return g;
    }

    private Row output(Group g) {
        Object[] vals = new Object[groupKeys.length + g.accs.length];
        for (int i = 0; i < groupKeys.length; i++) vals[i] = g.key.get(i);
        for (int i = 0; i < g.accs.length; i++) vals[groupKeys.length + i] = g.accs[i].result();
        return Row.wrap(vals);
    }

    /**
     * Equality of the exact values, stricter than row equality: numerics that are equal
     * but print differently (2.50 vs 2.500) count as a change.
     */
    private static boolean sameValues(Row a, Row b) {
        if (a == null || b == null) return a == b;
        if (a.arity() != b.arity()) return false;
        for (int i = 0; i < a.arity(); i++) {
            if (!Objects.equals(a.get(i), b.get(i))) return false;
        }
        return true;
    }
}
