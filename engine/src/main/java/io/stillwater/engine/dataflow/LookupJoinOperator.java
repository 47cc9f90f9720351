package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.plan.JoinKind;

/**
 * A join of one input's changes (the <em>probe</em> side) with an {@link ArrangedInput}
 * fixed at the read time: each probe row looks its key up in the arrangement, so the
 * arranged side is never copied. Only for one-shot reads, whose arranged side cannot
 * change between steps (a maintained dataflow would need the arrangement's changes too).
 *
 * <p>Semantics are {@link JoinOperator}'s: SQL equality on the key (a NULL never
 * matches), key pairs the arrangement's key does not cover checked per candidate, then
 * the residual over {@code left ++ right}; an error evaluating the residual goes to the
 * error collection with the pair's diff and counts as no match. Supported shapes: the
 * arranged side on the right for INNER, LEFT, SEMI and ANTI joins, and on the left for
 * INNER joins ({@code probeIsLeft == false}).
 */
final class LookupJoinOperator extends Operator {
    private final JoinKind kind;
    private final ArrangedInput arranged;
    private final boolean probeIsLeft;
    /** For each arrangement key column, the probe column whose value it must equal. */
    private final int[] probeLookupColumns;
    /** Key pairs the arrangement does not cover: probe column i must equal arranged column i. */
    private final int[] probeExtra;
    private final int[] arrangedExtra;
    private final Evaluator residual;
    private final Row arrangedNulls;

    LookupJoinOperator(JoinKind kind, ArrangedInput arranged, boolean probeIsLeft, int[] probeLookupColumns,
                       int[] probeExtra, int[] arrangedExtra, Evaluator residual, int arrangedArity,
                       Cancellation cancel) {
        super(cancel);
        if (!probeIsLeft && kind != JoinKind.INNER) {
            throw new IllegalArgumentException("an arranged left side supports only inner joins, not " + kind);
        }
        this.kind = kind;
        this.arranged = arranged;
        this.probeIsLeft = probeIsLeft;
        this.probeLookupColumns = probeLookupColumns.clone();
        this.probeExtra = probeExtra.clone();
        this.arrangedExtra = arrangedExtra.clone();
        this.residual = residual;
        this.arrangedNulls = Row.wrap(new Object[arrangedArity]);
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes probe = inputs[0];
        Changes out = new Changes(probe.size());
        for (int i = 0; i < probe.size(); i++) {
            tick(i);
            probe(probe.row(i), probe.diff(i), out, errors);
        }
        return out;
    }

    /**
     * Joins one probe row {@code p} (with diff {@code d}) against the arrangement, adding
     * its output to {@code out}. Returns how many arranged rows it looked at (the work done).
     */
    long probe(Row p, long d, Changes out, Changes errors) {
        Row key = lookupKey(p);
        boolean[] matched = {false};
        long[] visited = {0};
        if (key != null) {
            arranged.lookup(key, (a, count) -> {
                visited[0]++;
                if (!extraKeysEqual(p, a)) return;
                Row joined = probeIsLeft ? p.concat(a) : a.concat(p);
                if (residual != null) {
                    try {
                        if (!Boolean.TRUE.equals(residual.eval(joined))) return;
                    } catch (SqlException e) {
                        errors.add(errorRow(e), d * count);
                        return;
                    }
                }
                matched[0] = true;
                if (kind == JoinKind.INNER || kind == JoinKind.LEFT) out.add(joined, d * count);
            });
        }
        switch (kind) {
            case LEFT -> { if (!matched[0]) out.add(p.concat(arrangedNulls), d); }
            case SEMI -> { if (matched[0]) out.add(p, d); }
            case ANTI -> { if (!matched[0]) out.add(p, d); }
            default -> {}
        }
        return visited[0];
    }

    /** The probe row's values for the arrangement's key, or null if one is NULL (no match). */
    private Row lookupKey(Row p) {
        Object[] k = new Object[probeLookupColumns.length];
        for (int i = 0; i < k.length; i++) {
            Object v = p.get(probeLookupColumns[i]);
            if (v == null) return null;
            k[i] = v;
        }
        return Row.wrap(k);
    }

    private boolean extraKeysEqual(Row p, Row a) {
        for (int i = 0; i < probeExtra.length; i++) {
            Object pv = p.get(probeExtra[i]);
            Object av = a.get(arrangedExtra[i]);
            if (pv == null || av == null) return false;
            if (!JoinOperator.normalize(pv).equals(JoinOperator.normalize(av))) return false;
        }
        return true;
    }
}
