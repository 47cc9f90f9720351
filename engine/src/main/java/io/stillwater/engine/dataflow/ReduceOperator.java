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
final class ReduceOperator extends Operator {
    private static final class Group {
        final Row key;
        final Accumulator[] accs;
        long rows;
        boolean touched;
        Row out;
        EvalError error;

        Group(Row key, Accumulator[] accs) {
            this.key = key;
            this.accs = accs;
        }
    }

    private final int[] groupKeys;
    private final List<Supplier<Accumulator>> factories;
    private final boolean global;
    private final HashMap<Row, Group> groups = new HashMap<>();
    private boolean started;

    ReduceOperator(int[] groupKeys, List<Supplier<Accumulator>> factories, Cancellation cancel) {
        super(cancel);
        this.groupKeys = groupKeys.clone();
        this.factories = List.copyOf(factories);
        this.global = groupKeys.length == 0;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        List<Group> touched = new ArrayList<>();
        if (!started) {
            started = true;
            if (global) touch(Row.EMPTY, touched);
        }
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            long d = in.diff(i);
            Group g = touch(global ? Row.EMPTY : r.project(groupKeys), touched);
            g.rows += d;
            for (Accumulator a : g.accs) a.add(r, d);
        }
        Changes out = new Changes(touched.size() * 2);
        for (int i = 0; i < touched.size(); i++) {
            tick(i);
            Group g = touched.get(i);
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
        return out;
    }

    private Group touch(Row key, List<Group> touched) {
        Group g = groups.get(key);
        if (g == null) {
            Accumulator[] accs = new Accumulator[factories.size()];
            for (int i = 0; i < accs.length; i++) accs[i] = factories.get(i).get();
            g = new Group(key, accs);
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
