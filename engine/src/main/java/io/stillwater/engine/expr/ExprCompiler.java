package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Casts;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles {@link Expr} trees into {@link Evaluator}s. The node structure is handled
 * here; each built-in function's semantics lives in {@link Functions}.
 */
public final class ExprCompiler {
    private ExprCompiler() {}

    public static Evaluator compile(Expr expr, EvalContext ctx) {
        return switch (expr) {
            case Expr.Column c -> {
                int i = c.index();
                yield row -> row.get(i);
            }
            case Expr.Literal l -> {
                Object v = l.value();
                yield row -> v;
            }
            case Expr.Param p -> throw new SqlException(SqlState.UNDEFINED_PARAMETER,
                    "there is no parameter $" + (p.index() + 1));
            case Expr.Cast c -> {
                Evaluator in = compile(c.input(), ctx);
                var from = c.input().type();
                var to = c.type();
                var zone = ctx.timeZone();
                var now = ctx.statementTime();
                if (c.input() instanceof Expr.Literal l) {
                    // Constant-fold literal casts, but keep a failing one lazy: CASE may never reach it.
                    Object folded;
                    try {
                        folded = Casts.cast(l.value(), from, to, zone, now);
                    } catch (SqlException e) {
                        yield row -> { throw e; };
                    }
                    yield row -> folded;
                }
                yield row -> Casts.cast(in.eval(row), from, to, zone, now);
            }
            case Expr.Case c -> {
                List<Evaluator> conds = compileAll(c.conds(), ctx);
                List<Evaluator> results = compileAll(c.results(), ctx);
                Evaluator otherwise = c.otherwise() == null ? row -> null : compile(c.otherwise(), ctx);
                int n = conds.size();
                yield row -> {
                    for (int i = 0; i < n; i++) {
                        if (Boolean.TRUE.equals(conds.get(i).eval(row))) return results.get(i).eval(row);
                    }
                    return otherwise.eval(row);
                };
            }
            case Expr.Call call -> Functions.compile(call, compileAll(call.args(), ctx), ctx);
        };
    }

    public static List<Evaluator> compileAll(List<Expr> exprs, EvalContext ctx) {
        List<Evaluator> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) out.add(compile(e, ctx));
        return out;
    }
}
