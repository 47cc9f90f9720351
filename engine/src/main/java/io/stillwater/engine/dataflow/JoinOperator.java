package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.plan.JoinKind;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A hash join of two collections on equi keys (SQL equality: a key with a NULL column
 * never matches), then an optional residual predicate over {@code left ++ right}.
 *
 * <p>State: each side's accumulated contents, indexed by key. The inner part is bilinear
 * and computed as {@code dL x R_old + L_new x dR}. The parts that depend on whether a row
 * has a match (NULL-padded rows of outer joins, SEMI and ANTI output) are maintained per
 * affected key: when one side changes at a key, the other side's rows at that key have
 * their old contribution retracted and their new one inserted; when only a row's own
 * side changes, only the changed rows are looked at.
 *
 * <p>An error evaluating the residual for a pair goes to the error collection with the
 * pair's diff, and that pair counts as no match.
 */
final class JoinOperator extends Operator {
    private final JoinKind kind;
    private final int[] leftKeys;
    private final int[] rightKeys;
    private final Evaluator residual;
    private final Row leftNulls;
    private final Row rightNulls;
    /** Does this kind output matched pairs? (Not SEMI/ANTI; they still evaluate pairs for errors.) */
    private final boolean emitPairs;
    private final boolean leftStatus;
    private final boolean rightStatus;

    private final HashMap<Row, Bucket> left = new HashMap<>();
    private final HashMap<Row, Bucket> right = new HashMap<>();

    JoinOperator(JoinKind kind, int[] leftKeys, int[] rightKeys, Evaluator residual,
                 int leftArity, int rightArity, Cancellation cancel) {
        super(cancel);
        this.kind = kind;
        this.leftKeys = leftKeys.clone();
        this.rightKeys = rightKeys.clone();
        this.residual = residual;
        this.leftNulls = Row.wrap(new Object[leftArity]);
        this.rightNulls = Row.wrap(new Object[rightArity]);
        this.emitPairs = kind != JoinKind.SEMI && kind != JoinKind.ANTI;
        this.leftStatus = kind == JoinKind.LEFT || kind == JoinKind.FULL || kind == JoinKind.SEMI || kind == JoinKind.ANTI;
        this.rightStatus = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        if (!leftStatus && !rightStatus) return innerStep(inputs[0], inputs[1], errors);
        Changes out = new Changes();
        Map<Row, Changes> dl = group(inputs[0], leftKeys, true, out);
        Map<Row, Changes> dr = group(inputs[1], rightKeys, false, out);
        if (dl.isEmpty() && dr.isEmpty()) return out;
        boolean pairs = emitPairs || residual != null;
        int ticks = 0;

        // Retract the match-dependent output of rows whose other side changes at their key.
        if (leftStatus) {
            for (Row k : dr.keySet()) {
                Bucket ls = left.get(k);
                if (ls == null) continue;
                Bucket rs = right.get(k);
                for (int i = 0; i < ls.size(); i++) {
                    tick(ticks++);
                    leftStatus(ls.row(i), leftMatches(ls.row(i), rs), -ls.count(i), out);
                }
            }
        }
        if (rightStatus) {
            for (Row k : dl.keySet()) {
                Bucket rs = right.get(k);
                if (rs == null) continue;
                Bucket ls = left.get(k);
                for (int i = 0; i < rs.size(); i++) {
                    tick(ticks++);
                    rightStatus(rs.row(i), rightMatches(rs.row(i), ls), -rs.count(i), out);
                }
            }
        }

        // Inner part: dL x R_old, then L_new x dR.
        for (var g : dl.entrySet()) {
            Changes d = g.getValue();
            Bucket rs = right.get(g.getKey());
            if (pairs && rs != null) {
                for (int i = 0; i < d.size(); i++) {
                    Row l = d.row(i);
                    long dd = d.diff(i);
                    for (int j = 0; j < rs.size(); j++) {
                        tick(ticks++);
                        pair(l, rs.row(j), dd * rs.count(j), out, errors);
                    }
                }
            }
            apply(left, g.getKey(), d);
        }
        for (var g : dr.entrySet()) {
            Changes d = g.getValue();
            Bucket ls = left.get(g.getKey());
            if (pairs && ls != null) {
                for (int i = 0; i < d.size(); i++) {
                    Row r = d.row(i);
                    long dd = d.diff(i);
                    for (int j = 0; j < ls.size(); j++) {
                        tick(ticks++);
                        pair(ls.row(j), r, ls.count(j) * dd, out, errors);
                    }
                }
            }
            apply(right, g.getKey(), d);
        }

        // Insert the new match-dependent output.
        if (leftStatus) {
            for (Row k : dr.keySet()) {
                Bucket ls = left.get(k);
                if (ls == null) continue;
                Bucket rs = right.get(k);
                for (int i = 0; i < ls.size(); i++) {
                    tick(ticks++);
                    leftStatus(ls.row(i), leftMatches(ls.row(i), rs), ls.count(i), out);
                }
            }
            for (var g : dl.entrySet()) {
                if (dr.containsKey(g.getKey())) continue;
                Bucket rs = right.get(g.getKey());
                Changes d = g.getValue();
                for (int i = 0; i < d.size(); i++) {
                    tick(ticks++);
                    leftStatus(d.row(i), leftMatches(d.row(i), rs), d.diff(i), out);
                }
            }
        }
        if (rightStatus) {
            for (Row k : dl.keySet()) {
                Bucket rs = right.get(k);
                if (rs == null) continue;
                Bucket ls = left.get(k);
                for (int i = 0; i < rs.size(); i++) {
                    tick(ticks++);
                    rightStatus(rs.row(i), rightMatches(rs.row(i), ls), rs.count(i), out);
                }
            }
            for (var g : dr.entrySet()) {
                if (dl.containsKey(g.getKey())) continue;
                Bucket ls = left.get(g.getKey());
                Changes d = g.getValue();
                for (int i = 0; i < d.size(); i++) {
                    tick(ticks++);
                    rightStatus(d.row(i), rightMatches(d.row(i), ls), d.diff(i), out);
                }
            }
        }
        return out;
    }

    /**
     * Groups a side's changes by key. Rows with a NULL key column can never match, so
     * they are not stored: their (unmatched) output is emitted right here.
     */
    private Map<Row, Changes> group(Changes in, int[] keys, boolean isLeft, Changes out) {
        Map<Row, Changes> groups = new LinkedHashMap<>();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            Row k = keyOf(r, keys);
            if (k == null) {
                if (isLeft) leftStatus(r, false, in.diff(i), out);
                else if (rightStatus) rightStatus(r, false, in.diff(i), out);
                continue;
            }
            groups.computeIfAbsent(k, x -> new Changes(4)).add(r, in.diff(i));
        }
        return groups;
    }

    private static Row keyOf(Row r, int[] keys) {
        if (keys.length == 0) return Row.EMPTY;
        Object[] k = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            Object v = r.get(keys[i]);
            if (v == null) return null;
            k[i] = normalize(v);
        }
        return Row.wrap(k);
    }

    /**
     * One representation per number, so keys of different numeric types that are equal in
     * SQL ({@code int = bigint}, {@code bigint = numeric}, {@code real = double}) hash
     * alike: integers become Long (as does an integral numeric that fits), floats Double.
     */
    static Object normalize(Object v) {
        if (v instanceof Integer i) return (long) i;
        if (v instanceof Short s) return (long) s;
        if (v instanceof Float f) return (double) f;
        if (v instanceof BigDecimal d && d.signum() == 0) return 0L;
        if (v instanceof BigDecimal d && d.scale() <= 0 && d.precision() - d.scale() <= 18) return d.longValueExact();
        if (v instanceof BigDecimal d && d.scale() > 0) {
            BigDecimal stripped = d.stripTrailingZeros();
            if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 18) return stripped.longValueExact();
        }
        return v;
    }

    private static void apply(HashMap<Row, Bucket> side, Row key, Changes d) {
        Bucket c = side.get(key);
        if (c == null) {
            c = new Bucket();
            side.put(key, c);
        }
        for (int i = 0; i < d.size(); i++) c.update(d.row(i), d.diff(i));
        if (c.isEmpty()) side.remove(key);
    }

    private static void apply(HashMap<Row, Bucket> side, Row key, Row row, long diff) {
        Bucket c = side.get(key);
        if (c == null) {
            c = new Bucket();
            side.put(key, c);
        }
        c.update(row, diff);
        if (c.isEmpty()) side.remove(key);
    }

    /**
     * INNER joins depend on no match status, so they need no grouping: each left change
     * probes the right side as it was, then each right change probes the updated left.
     */
    private Changes innerStep(Changes dl, Changes dr, Changes errors) {
        Changes out = new Changes(Math.max(dl.size(), dr.size()));
        int ticks = 0;
        for (int i = 0; i < dl.size(); i++) {
            tick(ticks++);
            Row l = dl.row(i);
            Row k = keyOf(l, leftKeys);
            if (k == null) continue;
            long d = dl.diff(i);
            Bucket rs = right.get(k);
            if (rs != null) {
                for (int j = 0; j < rs.size(); j++) {
                    tick(ticks++);
                    pair(l, rs.row(j), d * rs.count(j), out, errors);
                }
            }
            apply(left, k, l, d);
        }
        for (int i = 0; i < dr.size(); i++) {
            tick(ticks++);
            Row r = dr.row(i);
            Row k = keyOf(r, rightKeys);
            if (k == null) continue;
            long d = dr.diff(i);
            Bucket ls = left.get(k);
            if (ls != null) {
                for (int j = 0; j < ls.size(); j++) {
                    tick(ticks++);
                    pair(ls.row(j), r, ls.count(j) * d, out, errors);
                }
            }
            apply(right, k, r, d);
        }
        return out;
    }

    private void pair(Row l, Row r, long diff, Changes out, Changes errors) {
        Row joined = l.concat(r);
        if (residual != null) {
            try {
                if (!Boolean.TRUE.equals(residual.eval(joined))) return;
            } catch (SqlException e) {
                errors.add(errorRow(e), diff);
                return;
            }
        }
        if (emitPairs) out.add(joined, diff);
    }

    private boolean leftMatches(Row l, Bucket rs) {
        if (rs == null) return false;
        for (int i = 0; i < rs.size(); i++) {
            if (rs.count(i) > 0 && passes(l, rs.row(i))) return true;
        }
        return false;
    }

    private boolean rightMatches(Row r, Bucket ls) {
        if (ls == null) return false;
        for (int i = 0; i < ls.size(); i++) {
            if (ls.count(i) > 0 && passes(ls.row(i), r)) return true;
        }
        return false;
    }

    private boolean passes(Row l, Row r) {
        if (residual == null) return true;
        try {
            return Boolean.TRUE.equals(residual.eval(l.concat(r)));
        } catch (SqlException e) {
            return false; // reported once, by the inner part
        }
    }

    /** The output of left row {@code l} that depends on whether it has a match. */
    private void leftStatus(Row l, boolean matched, long diff, Changes out) {
        switch (kind) {
            case LEFT, FULL -> { if (!matched) out.add(l.concat(rightNulls), diff); }
            case SEMI -> { if (matched) out.add(l, diff); }
            case ANTI -> { if (!matched) out.add(l, diff); }
            default -> {}
        }
    }

    private void rightStatus(Row r, boolean matched, long diff, Changes out) {
        if (!matched) out.add(leftNulls.concat(r), diff);
    }
}
