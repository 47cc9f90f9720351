package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.plan.PlanNode;
import java.util.HashMap;
import java.util.Map;

/**
 * A peek dataflow, materialized: runs the plan over the inputs' snapshots at {@code asOf}
 * as a {@link PipelinedRead} (chunk by chunk, under a memory budget) and returns the whole
 * result. Plain objects on the calling thread, so the fixed cost is building a handful of
 * operators. {@link #runUnchunked} is the reference: every input as one step of the
 * incremental dataflow (what a maintained view computes), kept for property tests.
 */
public final class OneShotRead {
    private OneShotRead() {}

    /**
     * The result of {@code body} over the inputs' contents at {@code asOf}, as a bag: every
     * diff positive, in no particular order (a row may appear in more than one entry; its
     * multiplicity is the sum). Fails with an evaluation error if the error collection is
     * non-empty, and with 57014 when {@code cancel} says so. No memory budget.
     */
    public static Changes run(PlanNode body, SnapshotSource source, long asOf, EvalContext ctx, Cancellation cancel) {
        return run(body, source, asOf, ctx, cancel, QueryMemory.unlimited(), PipelinedRead.DEFAULT_CHUNK_ROWS);
    }

    /** As {@link #run(PlanNode, SnapshotSource, long, EvalContext, Cancellation)}, with chunks of {@code chunkRows} and a budget. */
    public static Changes run(PlanNode body, SnapshotSource source, long asOf, EvalContext ctx, Cancellation cancel,
                              QueryMemory memory, int chunkRows) {
        return ChunkSource.drain(PipelinedRead.open(body, source, asOf, ctx, cancel, memory, chunkRows));
    }

    /**
     * The same result computed the way a maintained dataflow computes it: each input's
     * whole snapshot as one step of the incremental operators. Holds every operator's
     * whole output at once; the reference for {@link PipelinedRead}'s property tests.
     */
    public static Changes runUnchunked(PlanNode body, SnapshotSource source, long asOf, EvalContext ctx, Cancellation cancel) {
        Dataflow dataflow = new DataflowBuilder(ctx, cancel).withArrangements(id -> source.arranged(id, asOf)).build(body);
        Map<Long, Changes> inputs = new HashMap<>();
        for (long id : dataflow.sourceIds()) inputs.put(id, source.read(id, asOf));
        Delta out = dataflow.step(asOf, inputs);
        failOnErrors(out.errors());
        return consolidatePositive(out.ok());
    }

    /** Throws the least error whose accumulated count is positive, if any. */
    static void failOnErrors(Changes errors) {
        if (errors.isEmpty()) return;
        EvalError least = null;
        for (var e : consolidate(errors).entrySet()) {
            if (e.getValue()[0] <= 0) continue;
            EvalError err = (EvalError) e.getKey().get(0);
            if (least == null || err.compareTo(least) < 0) least = err;
        }
        if (least != null) throw least.toException();
    }

    /**
     * Returns {@code ok} itself when every diff is positive, else merges equal rows by
     * hashing (no sort: the caller orders the result if it needs to).
     */
    static Changes consolidatePositive(Changes ok) {
        boolean allPositive = true;
        for (int i = 0; i < ok.size() && allPositive; i++) allPositive = ok.diff(i) > 0;
        if (allPositive) return ok;
        HashMap<Row, long[]> sums = consolidate(ok);
        Changes result = new Changes(sums.size());
        for (var e : sums.entrySet()) {
            long d = e.getValue()[0];
            if (d < 0) throw negative(e.getKey());
            result.add(e.getKey(), d);
        }
        return result;
    }

    private static HashMap<Row, long[]> consolidate(Changes c) {
        HashMap<Row, long[]> sums = HashMap.newHashMap(c.size());
        for (int i = 0; i < c.size(); i++) {
            long[] s = sums.get(c.row(i));
            if (s == null) sums.put(c.row(i), new long[] {c.diff(i)});
            else s[0] += c.diff(i);
        }
        return sums;
    }

    private static SqlException negative(Row r) {
        return new SqlException(SqlState.INTERNAL_ERROR,
                "internal error: a one-shot read produced a negative multiplicity for row " + r);
    }
}
