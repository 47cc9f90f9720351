package io.stillwater.engine.dataflow;

import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.types.SqlType;
import java.math.RoundingMode;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.Datums;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plain, non-incremental evaluator of plans over bags (lists of rows), written the
 * obvious way (nested loops, sorting, recounting) to serve as the model the incremental
 * operators are checked against. Errors of aggregates go to {@link #errors}.
 */
final class Reference {
    final List<EvalError> errors = new ArrayList<>();
    private final Map<Long, List<Row>> db;
    /** The working tables of the recursive queries being evaluated. */
    private final Map<Long, List<Row>> working = new java.util.HashMap<>();
    private final EvalContext ctx = EvalContext.defaults();

    Reference(Map<Long, List<Row>> db) { this.db = db; }

    List<Row> eval(PlanNode p) {
        return switch (p) {
            case PlanNode.Get g -> working.containsKey(g.objectId()) ? working.get(g.objectId())
                    : db.getOrDefault(g.objectId(), List.of());
            case PlanNode.Constant c -> c.rows();
            case PlanNode.Filter f -> {
                List<Evaluator> preds = ExprCompiler.compileAll(f.predicates(), ctx);
                List<Row> out = new ArrayList<>();
                for (Row r : eval(f.input())) {
                    boolean keep = true;
                    for (Evaluator e : preds) keep &= Boolean.TRUE.equals(e.eval(r));
                    if (keep) out.add(r);
                }
                yield out;
            }
            case PlanNode.Project pr -> {
                List<Evaluator> exprs = ExprCompiler.compileAll(pr.exprs(), ctx);
                List<Row> out = new ArrayList<>();
                for (Row r : eval(pr.input())) {
                    Object[] v = new Object[exprs.size()];
                    for (int i = 0; i < v.length; i++) v[i] = exprs.get(i).eval(r);
                    out.add(Row.of(v));
                }
                yield out;
            }
            case PlanNode.Join j -> join(j);
            case PlanNode.Reduce r -> reduce(r);
            case PlanNode.Distinct d -> distinct(eval(d.input()));
            case PlanNode.Union u -> {
                List<Row> out = new ArrayList<>();
                for (PlanNode in : u.inputs()) out.addAll(eval(in));
                yield u.all() ? out : distinct(out);
            }
            case PlanNode.Except e -> {
                List<Row> l = eval(e.left()), r = eval(e.right());
                if (!e.all()) { l = distinct(l); r = distinct(r); }
                List<Row> out = new ArrayList<>();
                for (Row row : distinct(l)) {
                    long n = count(l, row) - count(r, row);
                    for (long i = 0; i < n; i++) out.add(row);
                }
                yield out;
            }
            case PlanNode.Intersect x -> {
                List<Row> l = eval(x.left()), r = eval(x.right());
                if (!x.all()) { l = distinct(l); r = distinct(r); }
                List<Row> out = new ArrayList<>();
                for (Row row : distinct(l)) {
                    long n = Math.min(count(l, row), count(r, row));
                    for (long i = 0; i < n; i++) out.add(row);
                }
                yield out;
            }
            case PlanNode.TopK t -> topK(t);
            case PlanNode.GenerateSeries s -> throw new UnsupportedOperationException("not modelled");
            case PlanNode.LateralSeries s -> lateralSeries(s);
            case PlanNode.Window w -> new WindowReference(this).eval(w, eval(w.input()));
            case PlanNode.Recursive r -> recursive(r);
            case PlanNode.FlatMap f -> {
                List<Evaluator> argEvals = ExprCompiler.compileAll(f.args(), ctx);
                List<Row> out = new ArrayList<>();
                for (Row r : eval(f.input())) {
                    Object[] args = new Object[f.args().size()];
                    for (int i = 0; i < args.length; i++) args[i] = argEvals.get(i).eval(r);
                    List<Object[]> rows = f.function().rows(args);
                    if (rows.isEmpty() && f.outer()) rows = List.<Object[]>of(new Object[f.columns().size()]);
                    for (Object[] fr : rows) out.add(r.concat(Row.wrap(fr)));
                }
                yield out;
            }
        };
    }

    /** LATERAL generate_series over integers: each row followed by start, start+step, ... up to stop. */
    private List<Row> lateralSeries(PlanNode.LateralSeries s) {
        List<Evaluator> args = ExprCompiler.compileAll(s.args(), ctx);
        List<Row> out = new ArrayList<>();
        for (Row r : eval(s.input())) {
            Object start = args.get(0).eval(r), stop = args.get(1).eval(r);
            Object step = args.size() > 2 ? args.get(2).eval(r) : Integer.valueOf(1);
            List<Row> series = new ArrayList<>();
            if (start != null && stop != null && step != null) {
                long st = ((Number) step).longValue();
                for (long v = ((Number) start).longValue(); st > 0 ? v <= ((Number) stop).longValue()
                        : v >= ((Number) stop).longValue(); v += st) {
                    series.add(r.concat(Row.of((int) v)));
                }
            }
            if (series.isEmpty() && s.outer()) series.add(r.concat(Row.of((Object) null)));
            out.addAll(series);
        }
        return out;
    }

    /** WITH RECURSIVE as PostgreSQL describes it: iterate the step over the last iteration's new rows. */
    private List<Row> recursive(PlanNode.Recursive r) {
        List<Row> rows = eval(r.base());
        if (!r.all()) rows = distinct(rows);
        List<Row> result = new ArrayList<>(rows);
        while (!rows.isEmpty()) {
            working.put(r.workingId(), rows);
            List<Row> next = eval(r.step());
            if (!r.all()) {
                next = distinct(next);
                next.removeAll(result);
            }
            result.addAll(next);
            rows = next;
        }
        working.remove(r.workingId());
        return result;
    }

    private static long count(List<Row> rows, Row row) {
        return rows.stream().filter(row::equals).count();
    }

    private static List<Row> distinct(List<Row> rows) { return new ArrayList<>(new LinkedHashSet<>(rows)); }

    private List<Row> join(PlanNode.Join j) {
        List<Row> left = eval(j.left()), right = eval(j.right());
        Evaluator residual = j.residual() == null ? null : ExprCompiler.compile(j.residual(), ctx);
        Row leftNulls = Row.of(new Object[j.left().arity()]);
        Row rightNulls = Row.of(new Object[j.right().arity()]);
        List<Row> out = new ArrayList<>();
        boolean pairs = j.kind() != JoinKind.SEMI && j.kind() != JoinKind.ANTI;
        for (Row l : left) {
            boolean matched = false;
            for (Row r : right) {
                if (matches(j, residual, l, r)) {
                    matched = true;
                    if (pairs) out.add(l.concat(r));
                }
            }
            switch (j.kind()) {
                case LEFT, FULL -> { if (!matched) out.add(l.concat(rightNulls)); }
                case SEMI -> { if (matched) out.add(l); }
                case ANTI -> { if (!matched) out.add(l); }
                default -> {}
            }
        }
        if (j.kind() == JoinKind.RIGHT || j.kind() == JoinKind.FULL) {
            for (Row r : right) {
                boolean matched = false;
                for (Row l : left) matched |= matches(j, residual, l, r);
                if (!matched) out.add(leftNulls.concat(r));
            }
        }
        return out;
    }

    private static boolean matches(PlanNode.Join j, Evaluator residual, Row l, Row r) {
        for (int i = 0; i < j.leftKeys().length; i++) {
            Object a = l.get(j.leftKeys()[i]), b = r.get(j.rightKeys()[i]);
            if (a == null || b == null || Datums.compare(a, b) != 0) return false;
        }
        return residual == null || Boolean.TRUE.equals(residual.eval(l.concat(r)));
    }

    private List<Row> reduce(PlanNode.Reduce r) {
        TreeMap<Row, List<Row>> groups = new TreeMap<>();
        for (Row row : eval(r.input())) groups.computeIfAbsent(row.project(r.groupKeys()), k -> new ArrayList<>()).add(row);
        if (r.groupKeys().length == 0 && groups.isEmpty()) groups.put(Row.EMPTY, List.of());
        List<Row> out = new ArrayList<>();
        for (var g : groups.entrySet()) {
            List<Object> vals = new ArrayList<>(g.getKey().asList());
            try {
                for (AggCall a : r.aggs()) vals.add(aggregate(a, g.getValue(), r.input()));
                out.add(Row.of(vals));
            } catch (SqlException e) {
                errors.add(e.toEvalError());
            }
        }
        return out;
    }

    Object aggregate(AggCall a, List<Row> rows, PlanNode input) {
        List<Row> in = new ArrayList<>();
        for (Row r : rows) if (a.filterColumn() < 0 || Boolean.TRUE.equals(r.get(a.filterColumn()))) in.add(r);
        int[] args = a.args().stream().mapToInt(Integer::intValue).toArray();
        if (a.distinct()) {
            Map<Row, Row> firstByArgs = new HashMap<>();
            for (Row r : in) firstByArgs.putIfAbsent(r.project(args), r);
            in = new ArrayList<>(firstByArgs.values());
        }
        List<Object> values = new ArrayList<>();
        for (Row r : in) if (args.length > 0 && r.get(args[0]) != null) values.add(r.get(args[0]));
        return switch (a.func()) {
            case COUNT_STAR -> (long) in.size();
            case COUNT -> (long) values.size();
            case SUM -> {
                if (values.isEmpty()) yield null;
                if (a.type().kind() == TypeKind.DOUBLE) yield values.stream().mapToDouble(v -> ((Number) v).doubleValue()).sum();
                BigDecimal sum = BigDecimal.ZERO;
                for (Object v : values) sum = sum.add(new BigDecimal(v.toString()));
                yield a.type().kind() == TypeKind.BIGINT ? (Object) sum.longValueExact() : sum;
            }
            case AVG -> {
                if (values.isEmpty()) yield null;
                if (a.type().kind() == TypeKind.DOUBLE) yield values.stream().mapToDouble(v -> ((Number) v).doubleValue()).average().getAsDouble();
                BigDecimal sum = BigDecimal.ZERO;
                for (Object v : values) sum = sum.add(new BigDecimal(v.toString()));
                yield PgNumeric.divide(sum, BigDecimal.valueOf(values.size()));
            }
            case MIN -> values.stream().min(Datums.ORDER).orElse(null);
            case MAX -> values.stream().max(Datums.ORDER).orElse(null);
            case BOOL_AND -> values.isEmpty() ? null : values.stream().allMatch(Boolean.TRUE::equals);
            case BOOL_OR -> values.isEmpty() ? null : values.stream().anyMatch(Boolean.TRUE::equals);
            case STRING_AGG -> {
                // (value, separator, order columns...) sorted by ORDER BY, ties by the tuple.
                List<Row> tuples = new ArrayList<>();
                List<SortKey> remapped = new ArrayList<>();
                for (int i = 0; i < a.order().size(); i++) {
                    SortKey k = a.order().get(i);
                    remapped.add(new SortKey(2 + i, k.descending(), k.nullsFirst()));
                }
                for (Row r : in) {
                    if (r.get(args[0]) == null) continue;
                    List<Object> t = new ArrayList<>();
                    t.add(r.get(args[0]));
                    t.add(args.length > 1 ? r.get(args[1]) : null);
                    for (SortKey k : a.order()) t.add(r.get(k.column()));
                    tuples.add(Row.of(t));
                }
                Comparator<Row> cmp = RowOrder.byKeysThenRow(remapped);
                tuples.sort(cmp);
                if (tuples.isEmpty()) yield null;
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < tuples.size(); i++) {
                    if (i > 0 && tuples.get(i).get(1) != null) sb.append(tuples.get(i).get(1));
                    sb.append(tuples.get(i).get(0));
                }
                yield sb.toString();
            }
            case SINGLE_VALUE -> {
                if (in.size() > 1) {
                    throw new SqlException(SqlState.CARDINALITY_VIOLATION,
                            "more than one row returned by a subquery used as an expression");
                }
                yield in.isEmpty() ? null : in.get(0).get(args[0]);
            }
            case VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> {
                // PostgreSQL's numeric formula: (n*sum(x^2) - sum(x)^2) / (n*(n-1) or n*n).
                boolean sample = a.func() == AggFunc.VAR_SAMP
                        || a.func() == AggFunc.STDDEV_SAMP;
                int n = values.size();
                if (n == 0 || (sample && n == 1)) yield null;
                BigDecimal sx = BigDecimal.ZERO, sx2 = BigDecimal.ZERO;
                for (Object v : values) {
                    BigDecimal x = new BigDecimal(v.toString());
                    sx = sx.add(x);
                    sx2 = sx2.add(x.multiply(x));
                }
                BigDecimal bn = BigDecimal.valueOf(n);
                BigDecimal num = bn.multiply(sx2).subtract(sx.multiply(sx));
                if (num.signum() <= 0) yield BigDecimal.ZERO;
                BigDecimal den = sample ? bn.multiply(BigDecimal.valueOf(n - 1)) : bn.multiply(bn);
                int scale = PgNumeric.divScale(num, den);
                BigDecimal var = num.divide(den, scale, RoundingMode.HALF_UP);
                boolean stddev = a.func() == AggFunc.STDDEV_SAMP
                        || a.func() == AggFunc.STDDEV_POP;
                yield stddev ? PgNumeric.sqrt(var, scale) : var;
            }
            default -> throw new UnsupportedOperationException(a.func().name());
        };
    }

    private List<Row> topK(PlanNode.TopK t) {
        TreeMap<Row, List<Row>> groups = new TreeMap<>();
        for (Row row : eval(t.input())) groups.computeIfAbsent(row.project(t.groupKeys()), k -> new ArrayList<>()).add(row);
        List<Row> out = new ArrayList<>();
        for (List<Row> g : groups.values()) {
            List<Row> sorted = new ArrayList<>(g);
            sorted.sort(RowOrder.byKeysThenRow(t.order()));
            long end = t.limit() < 0 ? Long.MAX_VALUE : t.offset() + t.limit();
            for (int i = 0; i < sorted.size(); i++) if (i >= t.offset() && i < end) out.add(sorted.get(i));
        }
        return out;
    }

    /** A bag as row to count. */
    static Map<Row, Long> counts(List<Row> rows) {
        Map<Row, Long> m = new HashMap<>();
        for (Row r : rows) m.merge(r, 1L, Long::sum);
        return m;
    }

    /** Convenience for tests: an Expr column. */
    static Expr col(int i, SqlType t) { return new Expr.Column(i, t); }
}
