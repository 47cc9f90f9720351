package io.stillwater.engine.plan;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** Whole-plan transformations. */
public final class Plans {
    private Plans() {}

    /** The same plan with every {@link Expr.Param} replaced by a literal of its type. */
    public static QueryPlan bindParams(QueryPlan plan, List<Object> params) {
        long limit = plan.limitParam() < 0 ? plan.limit() : rowCount(plan.limitParam(), params, -1,
                SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT");
        long offset = plan.offsetParam() < 0 ? plan.offset() : rowCount(plan.offsetParam(), params, 0,
                SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET");
        return new QueryPlan(bindParams(plan.body(), params), plan.order(), limit, offset,
                plan.columnNames(), plan.columnTypes());
    }

    /** The value of a LIMIT/OFFSET parameter; NULL means no limit / no offset, as in PostgreSQL. */
    private static long rowCount(int index, List<Object> params, long ifNull, SqlState negative, String clause) {
        if (index >= params.size()) {
            throw new SqlException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $" + (index + 1));
        }
        Object v = params.get(index);
        if (v == null) return ifNull;
        long n;
        try {
            n = v instanceof Number num ? new BigDecimal(num.toString()).setScale(0,
                    RoundingMode.HALF_UP).longValueExact() : Long.parseLong(v.toString().trim());
        } catch (ArithmeticException | NumberFormatException e) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type bigint: \"" + v + "\"");
        }
        if (n < 0) throw new SqlException(negative, clause + " must not be negative");
        return n;
    }

    /** The same plan with every {@link Expr.Param} replaced by a literal of its type. */
    public static PlanNode bindParams(PlanNode node, List<Object> params) {
        return switch (node) {
            case PlanNode.Get g -> g;
            case PlanNode.Constant c -> c;
            case PlanNode.Project p -> new PlanNode.Project(bindParams(p.input(), params), bindAll(p.exprs(), params));
            case PlanNode.Filter f -> new PlanNode.Filter(bindParams(f.input(), params), bindAll(f.predicates(), params));
            case PlanNode.Join j -> new PlanNode.Join(bindParams(j.left(), params), bindParams(j.right(), params),
                    j.kind(), j.leftKeys(), j.rightKeys(), j.residual() == null ? null : bind(j.residual(), params));
            case PlanNode.Reduce r -> new PlanNode.Reduce(bindParams(r.input(), params), r.groupKeys(), r.aggs());
            case PlanNode.Distinct d -> new PlanNode.Distinct(bindParams(d.input(), params));
            case PlanNode.Union u -> {
                List<PlanNode> ins = new ArrayList<>();
                for (PlanNode i : u.inputs()) ins.add(bindParams(i, params));
                yield new PlanNode.Union(ins, u.all());
            }
            case PlanNode.Except e -> new PlanNode.Except(bindParams(e.left(), params), bindParams(e.right(), params), e.all());
            case PlanNode.Intersect i -> new PlanNode.Intersect(bindParams(i.left(), params),
                    bindParams(i.right(), params), i.all());
            case PlanNode.TopK t -> new PlanNode.TopK(bindParams(t.input(), params), t.groupKeys(), t.order(),
                    t.limit(), t.offset());
            case PlanNode.GenerateSeries g -> new PlanNode.GenerateSeries(bindAll(g.args(), params), g.type());
            case PlanNode.LateralSeries s -> new PlanNode.LateralSeries(bindParams(s.input(), params),
                    bindAll(s.args(), params), s.type(), s.outer());
            case PlanNode.Window w -> new PlanNode.Window(bindParams(w.input(), params), w.partitionKeys(), w.order(),
                    w.calls());
            case PlanNode.FlatMap f -> new PlanNode.FlatMap(bindParams(f.input(), params), f.function(),
                    bindAll(f.args(), params), f.columns(), f.outer());
            case PlanNode.Recursive r -> new PlanNode.Recursive(bindParams(r.base(), params), bindParams(r.step(), params),
                    r.workingId(), r.all(), r.types());
        };
    }

    private static List<Expr> bindAll(List<Expr> exprs, List<Object> params) {
        List<Expr> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) out.add(bind(e, params));
        return out;
    }

    /** The expression with every parameter replaced by a literal of the parameter's type. */
    public static Expr bind(Expr e, List<Object> params) {
        return switch (e) {
            case Expr.Column c -> c;
            case Expr.Literal l -> l;
            case Expr.Param p -> {
                if (p.index() >= params.size()) {
                    throw new SqlException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $" + (p.index() + 1));
                }
                yield new Expr.Literal(params.get(p.index()), p.type());
            }
            case Expr.Call c -> new Expr.Call(c.func(), bindAll(c.args(), params), c.type());
            case Expr.Cast c -> new Expr.Cast(bind(c.input(), params), c.type());
            case Expr.Case c -> new Expr.Case(bindAll(c.conds(), params), bindAll(c.results(), params),
                    c.otherwise() == null ? null : bind(c.otherwise(), params), c.type());
        };
    }
}
