package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.plan.PlanNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * {@code WITH RECURSIVE} ({@link PlanNode.Recursive}): iterates the recursive term to a
 * fixpoint over the accumulated contents of its inputs, PostgreSQL's way: the working
 * table starts as the base rows (deduplicated for UNION); each iteration runs the step
 * over the working table and its result (for UNION: only rows not in the result yet)
 * becomes the next working table and is added to the result; it stops when an iteration
 * adds nothing.
 *
 * <p>Inputs: {@code [0]} the base, then one per stored collection the step reads
 * ({@code externalIds}, in order). The step runs in a nested {@link Dataflow} of its own,
 * fed the collections once and then, per iteration, only the change of the working table
 * (iteration i is time i), so an iteration costs what its rows change, not a rerun.
 *
 * <p>Maintained: when any input changes, the fixpoint is recomputed from scratch over the
 * accumulated inputs and the output is the difference from the previous result (the
 * "iterate-to-fixpoint recomputed on change" strategy); errors likewise. A recursion that
 * has not converged after {@link #MAX_ITERATIONS} iterations is an error (54001) instead
 * of running forever; one-shot reads also bound its memory through {@link #memoryHook}
 * and stop on cancel or statement_timeout between iterations.
 *
 * <p>State is owned by the thread stepping the enclosing dataflow.
 */
final class RecursiveOperator extends Operator {
    static final int MAX_ITERATIONS = 100_000;

    private final PlanNode step;
    private final long workingId;
    private final boolean all;
    private final List<Long> externalIds;
    private final EvalContext ctx;
    private final DataflowBuilder.ExpressionCompiler compiler;
    /** Accumulated input collections (row to positive multiplicity): base first, then the externals. */
    private final Map<Row, Long>[] inputs;
    private Map<Row, Long> result = new HashMap<>();
    private Map<Row, Long> resultErrors = new HashMap<>();
    /** Told the estimated heap bytes of a computation's state as it grows; a one-shot read's budget. */
    private LongConsumer memoryHook = bytes -> { };

    @SuppressWarnings("unchecked")
    RecursiveOperator(PlanNode.Recursive plan, List<Long> externalIds, EvalContext ctx,
                      DataflowBuilder.ExpressionCompiler compiler, Cancellation cancel) {
        super(cancel);
        this.step = plan.step();
        this.workingId = plan.workingId();
        this.all = plan.all();
        this.externalIds = List.copyOf(externalIds);
        this.ctx = ctx;
        this.compiler = compiler;
        this.inputs = new Map[1 + externalIds.size()];
        for (int i = 0; i < inputs.length; i++) inputs[i] = new HashMap<>();
    }

    void memoryHook(LongConsumer hook) { this.memoryHook = hook; }

    @Override
    Changes step(Changes[] in, Changes errors) {
        boolean changed = false;
        for (int k = 0; k < in.length; k++) {
            for (int i = 0; i < in[k].size(); i++) merge(inputs[k], in[k].row(i), in[k].diff(i));
            changed |= !in[k].isEmpty();
        }
        if (!changed) return Changes.empty();
        Map<Row, Long> newErrors = new HashMap<>();
        Map<Row, Long> newResult = fixpoint(newErrors);
        errors.addAll(difference(resultErrors, newErrors));
        Changes out = difference(result, newResult);
        result = newResult;
        resultErrors = newErrors;
        return out;
    }

    private Map<Row, Long> fixpoint(Map<Row, Long> errors) {
        Map<Row, Long> out = new HashMap<>();
        Map<Row, Long> working = new HashMap<>();
        for (var e : inputs[0].entrySet()) if (e.getValue() > 0) working.put(e.getKey(), all ? e.getValue() : 1L);
        out.putAll(working);
        long bytes = bytes(working);
        memoryHook.accept(bytes);

        Dataflow dataflow = new DataflowBuilder(ctx, cancel, compiler).build(step);
        Map<Long, Changes> first = new HashMap<>();
        for (int k = 0; k < externalIds.size(); k++) first.put(externalIds.get(k), changes(inputs[k + 1]));
        Map<Row, Long> fed = Map.of();      // the working table the nested dataflow has now
        Map<Row, Long> stepOut = new HashMap<>(); // its accumulated output: the step over `fed`
        for (int iteration = 0; !working.isEmpty(); iteration++) {
            cancel.check();
            if (iteration == MAX_ITERATIONS) {
                merge(errors, errorRow(new EvalError(SqlState.STATEMENT_TOO_COMPLEX, "WITH RECURSIVE did not finish after "
                        + MAX_ITERATIONS + " iterations (each iteration still added rows)")), 1);
                break;
            }
            Changes feed = difference(fed, working);
            Map<Long, Changes> changes = iteration == 0 ? first : new HashMap<>();
            changes.put(workingId, feed);
            Delta d = dataflow.step(iteration, changes);
            for (int i = 0; i < d.ok().size(); i++) merge(stepOut, d.ok().row(i), d.ok().diff(i));
            for (int i = 0; i < d.errors().size(); i++) merge(errors, d.errors().row(i), d.errors().diff(i));
            if (!errors.isEmpty()) break; // the query fails; iterating on would only repeat it
            fed = working;
            Map<Row, Long> next = new HashMap<>();
            for (var e : stepOut.entrySet()) {
                if (e.getValue() <= 0) continue;
                if (all) {
                    next.put(e.getKey(), e.getValue());
                } else if (!out.containsKey(e.getKey())) {
                    next.put(e.getKey(), 1L);
                }
            }
            for (var e : next.entrySet()) out.merge(e.getKey(), e.getValue(), Long::sum);
            bytes += bytes(next);
            memoryHook.accept(bytes + bytes(stepOut));
            working = next;
        }
        return out;
    }

    private static long bytes(Map<Row, Long> rows) {
        long b = 0;
        for (Row r : rows.keySet()) b += HeapEstimate.row(r) + HeapEstimate.MAP_ENTRY;
        return b;
    }

    private static void merge(Map<Row, Long> into, Row row, long diff) {
        if (diff == 0) return;
        Long sum = into.merge(row, diff, Long::sum);
        if (sum == 0) into.remove(row);
    }

    private static Changes changes(Map<Row, Long> rows) {
        Changes c = new Changes(rows.size());
        for (var e : rows.entrySet()) c.add(e.getKey(), e.getValue());
        return c;
    }

    /** The changes that turn {@code from} into {@code to}. */
    private static Changes difference(Map<Row, Long> from, Map<Row, Long> to) {
        Changes c = new Changes(0);
        Set<Row> keys = new HashSet<>(from.keySet());
        keys.addAll(to.keySet());
        for (Row r : keys) {
            long d = to.getOrDefault(r, 0L) - from.getOrDefault(r, 0L);
            if (d != 0) c.add(r, d);
        }
        return c;
    }
}
