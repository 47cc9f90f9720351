package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.plan.PlanNode;
import java.util.HashMap;
import java.util.Map;

/**
 * A peek dataflow: builds the plan's dataflow, feeds each input's snapshot at
 * {@code asOf} as one step, takes the output and drops the dataflow. Plain objects on the
 * calling thread, so the fixed cost is building a handful of operators.
 */
public final class OneShotRead {
    private OneShotRead() {}

    /**
     * The result of {@code body} over the inputs' contents at {@code asOf}, as a bag: every
     * diff positive, in no particular order. Retractions are consolidated away; when the
     * output holds no retraction at all (the common case) it is returned as produced, so a
     * row may appear in more than one entry and its multiplicity is the sum (merging
     * duplicates would cost a hash of every output row). Fails with the least evaluation
     * error if the error collection is non-empty, and with 57014 when {@code cancel} says so.
     */
    public static Changes run(PlanNode body, SnapshotSource source, long asOf, EvalContext ctx, Cancellation cancel) {
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
