package io.stillwater.engine.peek;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the index keys a fast-path lookup reads: given a Filter/Project chain over one
 * collection and an export's key expressions, the set of key values outside which no
 * row can pass the chain's filters.
 *
 * <p>A key expression {@code k} is fixed by a conjunct {@code k = c}, {@code c = k},
 * {@code k IN (c1, ...)} or {@code k = c1 OR k = c2 ...}, where the {@code c} are
 * constant expressions (no column references; parameters are bound before planning).
 * Predicates above a Project are rewritten onto the collection's columns first. The
 * lookup is only an index: the executor still applies the whole chain to every row it
 * finds, so the candidate set may be larger than the answer but never misses a row.
 *
 * <p>Only types whose storage order equals SQL equality qualify (integers, numeric,
 * text, varchar, boolean, date, time, timestamps, bytea; not floats, where -0 = 0, nor
 * char(n) or interval). An integer key compared after a widening cast ({@code
 * CAST(k AS bigint) = 5}) is looked up at the narrowed value, or matches nothing when
 * the value is out of the key's range.
 */
final class LookupKeys {
    /** Past this many key combinations a walk is cheaper than the lookups. */
    static final int MAX_KEYS = 1024;

    private LookupKeys() {}

    /** The key rows to look up, or empty when {@code key} is not fixed by {@code body}'s filters. */
    static Optional<List<Row>> match(PlanNode body, List<Expr> key, EvalContext ctx) {
        if (key.isEmpty()) return Optional.empty();
        List<Expr> conjuncts = conjuncts(body);
        List<List<Object>> perColumn = new ArrayList<>();
        for (Expr k : key) {
            if (!lookupType(k.type())) return Optional.empty();
            List<Object> values = null;
            for (Expr p : conjuncts) {
                values = valuesFixing(p, k, ctx);
                if (values != null) break;
            }
            if (values == null) return Optional.empty();
            perColumn.add(values);
        }
        long combos = 1;
        for (List<Object> vs : perColumn) combos *= Math.max(1, vs.size());
        if (combos > MAX_KEYS) return Optional.empty();
        List<Row> rows = new ArrayList<>();
        product(perColumn, 0, new Object[key.size()], rows);
        return Optional.of(rows);
    }

    private static void product(List<List<Object>> perColumn, int i, Object[] acc, List<Row> out) {
        if (i == perColumn.size()) {
            out.add(Row.of(acc));
            return;
        }
        for (Object v : perColumn.get(i)) {
            acc[i] = v;
            product(perColumn, i + 1, acc, out);
        }
    }

    /** The chain's filter predicates over the collection's columns, with ANDs flattened. */
    static List<Expr> conjuncts(PlanNode body) {
        Deque<PlanNode> chain = new ArrayDeque<>();
        for (PlanNode n = body; FusedMfp.isMfp(n); n = n instanceof PlanNode.Project p ? p.input() : ((PlanNode.Filter) n).input()) {
            chain.addFirst(n);
        }
        List<Expr> mapping = null; // null: identity onto the collection's columns
        List<Expr> out = new ArrayList<>();
        for (PlanNode link : chain) {
            if (link instanceof PlanNode.Filter f) {
                for (Expr p : f.predicates()) flattenAnd(substitute(p, mapping), out);
            } else {
                List<Expr> next = new ArrayList<>();
                for (Expr e : ((PlanNode.Project) link).exprs()) next.add(substitute(e, mapping));
                mapping = next;
            }
        }
        return out;
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.Call c && c.func() == Func.AND) {
            for (Expr a : c.args()) flattenAnd(a, out);
        } else {
            out.add(e);
        }
    }

    /** {@code e} with column i replaced by {@code mapping.get(i)}. */
    static Expr substitute(Expr e, List<Expr> mapping) {
        if (mapping == null) return e;
        return switch (e) {
            case Expr.Column c -> mapping.get(c.index());
            case Expr.Literal l -> l;
            case Expr.Param p -> p;
            case Expr.Call c -> new Expr.Call(c.func(), c.args().stream().map(a -> substitute(a, mapping)).toList(), c.type());
            case Expr.Cast c -> new Expr.Cast(substitute(c.input(), mapping), c.type());
            case Expr.Case c -> new Expr.Case(c.conds().stream().map(a -> substitute(a, mapping)).toList(),
                    c.results().stream().map(a -> substitute(a, mapping)).toList(),
                    c.otherwise() == null ? null : substitute(c.otherwise(), mapping), c.type());
        };
    }

    /**
     * The key values {@code predicate} allows for key expression {@code k} (in k's type),
     * or null when it does not fix {@code k}.
     */
    private static List<Object> valuesFixing(Expr predicate, Expr k, EvalContext ctx) {
        if (!(predicate instanceof Expr.Call c)) return null;
        switch (c.func()) {
            case EQ -> {
                Expr a = c.args().get(0);
                Expr b = c.args().get(1);
                List<Object> v = equality(a, b, k, ctx);
                return v != null ? v : equality(b, a, k, ctx);
            }
            case IN -> {
                Expr subject = c.args().get(0);
                Set<Object> values = new LinkedHashSet<>();
                for (Expr item : c.args().subList(1, c.args().size())) {
                    List<Object> v = equality(subject, item, k, ctx);
                    if (v == null) return null;
                    values.addAll(v);
                }
                return new ArrayList<>(values);
            }
            case OR -> {
                Set<Object> values = new LinkedHashSet<>();
                for (Expr d : c.args()) {
                    List<Object> v = valuesFixing(d, k, ctx);
                    if (v == null) return null;
                    values.addAll(v);
                }
                return new ArrayList<>(values);
            }
            default -> {
                return null;
            }
        }
    }

    /** For {@code side = constant}: the key values, or null if {@code side} is not {@code k} (or a widening of it). */
    private static List<Object> equality(Expr side, Expr constant, Expr k, EvalContext ctx) {
        if (!isConstant(constant)) return null;
        SqlType keyType = k.type();
        SqlType compared;
        if (side.equals(k)) {
            compared = k.type();
        } else if (side instanceof Expr.Cast cast && cast.input().equals(k)
                && keyType.kind().isInteger() && cast.type().kind().isInteger()) {
            compared = cast.type();
        } else {
            return null;
        }
        Object v;
        try {
            v = ExprCompiler.compile(constant, ctx).eval(Row.EMPTY);
        } catch (SqlException e) {
            return null; // the walk reports the error as data, if a row reaches it
        }
        if (v == null) return List.of(); // = NULL is never true
        TypeKind ck = constant.type().kind();
        TypeKind kk = compared.kind();
        if (ck != kk && !(ck.isString() && kk.isString()) && !(ck.isInteger() && kk.isInteger())) {
            return null; // the front end casts both sides to one type; anything else is not ours to guess
        }
        return convert(v, keyType).map(List::of).orElse(List.of());
    }

    /** {@code v} in the key's Java class, or empty when no key value equals it. */
    private static Optional<Object> convert(Object v, SqlType keyType) {
        TypeKind kind = keyType.kind();
        if (!kind.isInteger()) return Optional.of(v);
        if (!(v instanceof Number n)) return Optional.empty();
        long x = n.longValue();
        return switch (kind) {
            case SMALLINT -> x >= Short.MIN_VALUE && x <= Short.MAX_VALUE ? Optional.of((short) x) : Optional.empty();
            case INTEGER -> x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE ? Optional.of((int) x) : Optional.empty();
            default -> Optional.of(x);
        };
    }

    private static boolean isConstant(Expr e) {
        return switch (e) {
            case Expr.Column c -> false;
            case Expr.Literal l -> true;
            case Expr.Param p -> false;
            case Expr.Call c -> !volatileFunc(c.func()) && c.args().stream().allMatch(LookupKeys::isConstant);
            case Expr.Cast c -> isConstant(c.input());
            case Expr.Case c -> c.conds().stream().allMatch(LookupKeys::isConstant)
                    && c.results().stream().allMatch(LookupKeys::isConstant)
                    && (c.otherwise() == null || isConstant(c.otherwise()));
        };
    }

    private static boolean volatileFunc(Func f) { return f == Func.RANDOM; }

    private static boolean lookupType(SqlType t) {
        return switch (t.kind()) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, NUMERIC, TEXT, VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, BYTEA -> true;
            case REAL, DOUBLE, CHAR, INTERVAL, UNKNOWN, ARRAY, JSONB -> false;
        };
    }
}
