package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.plan.JoinKind;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Set;

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

    /** What a join computes: its kind, equi keys, residual and the sides' arities. */
    record Shape(JoinKind kind, int[] leftKeys, int[] rightKeys, Evaluator residual, int leftArity, int rightArity) {}

    /** This join's shape, for the one-shot variant a pipelined read runs instead ({@link HashJoinStage}). */
    Shape shape() {
        return new Shape(kind, leftKeys.clone(), rightKeys.clone(), residual, leftNulls.arity(), rightNulls.arity());
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes dl = inputs[0], dr = inputs[1];
        if (dl.isEmpty() && dr.isEmpty()) return Changes.empty();
        Changes out = new Changes(Math.max(dl.size(), dr.size()));
        // Each change's key, computed once; null-key rows never match, so their (unmatched)
        // output is emitted right here and they are not stored.
        Row[] lk = keys(dl, leftKeys, true, out);
        Row[] rk = keys(dr, rightKeys, false, out);
        // Keys where a side changed: the other side's match status may change there.
        Set<Row> rightChanged = leftStatus ? keySet(rk) : Set.of();
        Set<Row> leftChanged = rightStatus ? keySet(lk) : Set.of();
        int ticks = 0;

        // Retract the match-dependent output of rows whose other side changes at their key.
        for (Row k : rightChanged) {
            Bucket ls = left.get(k);
            if (ls == null) continue;
            Bucket rs = right.get(k);
            for (int i = 0; i < ls.size(); i++) {
                tick(ticks++);
                leftStatus(ls.row(i), leftMatches(ls.row(i), rs), -ls.count(i), out);
            }
        }
        for (Row k : leftChanged) {
            Bucket rs = right.get(k);
            if (rs == null) continue;
            Bucket ls = left.get(k);
            for (int i = 0; i < rs.size(); i++) {
                tick(ticks++);
                rightStatus(rs.row(i), rightMatches(rs.row(i), ls), -rs.count(i), out);
            }
        }

        // Inner part, change by change: dL x R_old (updating L), then L_new x dR (updating R).
        boolean pairs = emitPairs || residual != null;
        for (int i = 0; i < dl.size(); i++) {
            tick(ticks++);
            if (lk[i] == null) continue;
            Row l = dl.row(i);
            long d = dl.diff(i);
            Bucket rs = pairs ? right.get(lk[i]) : null;
            if (rs != null) {
                for (int j = 0; j < rs.size(); j++) {
                    tick(ticks++);
                    pair(l, rs.row(j), d * rs.count(j), out, errors);
                }
            }
            apply(left, lk[i], l, d);
        }
        for (int i = 0; i < dr.size(); i++) {
            tick(ticks++);
            if (rk[i] == null) continue;
            Row r = dr.row(i);
            long d = dr.diff(i);
            Bucket ls = pairs ? left.get(rk[i]) : null;
            if (ls != null) {
                for (int j = 0; j < ls.size(); j++) {
                    tick(ticks++);
                    pair(ls.row(j), r, ls.count(j) * d, out, errors);
                }
            }
            apply(right, rk[i], r, d);
        }

        // Insert the new match-dependent output: every row at keys where the other side
        // changed, and the changed rows themselves elsewhere (their match status is that
        // of the unchanged other side).
        if (leftStatus) {
            for (Row k : rightChanged) {
                Bucket ls = left.get(k);
                if (ls == null) continue;
                Bucket rs = right.get(k);
                for (int i = 0; i < ls.size(); i++) {
                    tick(ticks++);
                    leftStatus(ls.row(i), leftMatches(ls.row(i), rs), ls.count(i), out);
                }
            }
            for (int i = 0; i < dl.size(); i++) {
                tick(ticks++);
                if (lk[i] == null || rightChanged.contains(lk[i])) continue;
                leftStatus(dl.row(i), leftMatches(dl.row(i), right.get(lk[i])), dl.diff(i), out);
            }
        }
        if (rightStatus) {
            for (Row k : leftChanged) {
                Bucket rs = right.get(k);
                if (rs == null) continue;
                Bucket ls = left.get(k);
                for (int i = 0; i < rs.size(); i++) {
                    tick(ticks++);
                    rightStatus(rs.row(i), rightMatches(rs.row(i), ls), rs.count(i), out);
                }
            }
            for (int i = 0; i < dr.size(); i++) {
                tick(ticks++);
                if (rk[i] == null || leftChanged.contains(rk[i])) continue;
                rightStatus(dr.row(i), rightMatches(dr.row(i), left.get(rk[i])), dr.diff(i), out);
            }
        }
        return out;
    }

    /** The key of each change (null for a NULL key, whose unmatched output is emitted now). */
    private Row[] keys(Changes in, int[] keys, boolean isLeft, Changes out) {
        Row[] ks = new Row[in.size()];
        for (int i = 0; i < ks.length; i++) {
            tick(i);
            Row r = in.row(i);
            ks[i] = keyOf(r, keys);
            if (ks[i] == null) {
                if (isLeft) leftStatus(r, false, in.diff(i), out);
                else if (rightStatus) rightStatus(r, false, in.diff(i), out);
            }
        }
        return ks;
    }

    private static Set<Row> keySet(Row[] keys) {
        if (keys.length == 0) return Set.of();
        Set<Row> set = new LinkedHashSet<>();
        for (Row k : keys) if (k != null) set.add(k);
        return set;
    }

    /** The join key of {@code r} (normalized numbers), or null when a key column is NULL (it never matches). */
    static Row keyOf(Row r, int[] keys) {
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

    private static void apply(HashMap<Row, Bucket> side, Row key, Row row, long diff) {
        Bucket c = side.get(key);
        if (c == null) {
            c = new Bucket();
            side.put(key, c);
        }
        c.update(row, diff);
        if (c.isEmpty()) side.remove(key);
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
