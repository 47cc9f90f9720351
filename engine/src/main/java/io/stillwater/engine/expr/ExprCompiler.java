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
            case Expr.Call call -> nullForNullConstant(call)
                    ? row -> null
                    : Functions.compile(call, compileAll(call.args(), ctx), ctx);
        };
    }

    /**
     * Whether a call is NULL whatever its other arguments are, because of a NULL constant
     * among its arguments: any argument of a strict function, the left side of IN or an
     * IN list of NULLs only, both bounds of BETWEEN. PostgreSQL folds such a call to NULL
     * when it plans the query, so the other arguments never run:
     * {@code 2147483647 + a NOT BETWEEN NULL AND NULL} is NULL, not an overflow.
     */
    static boolean nullForNullConstant(Expr.Call call) {
        List<Expr> args = call.args();
        return switch (call.func()) {
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM, AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_TRUE,
                    IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, COALESCE, GREATEST, LEAST, CONCAT, PG_TYPEOF -> false;
            case NULLIF -> isNullConstant(args.get(0));
            case ARRAY, ANY_OP, ALL_OP, ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT, ARRAY_POSITION, ARRAY_POSITIONS,
                    ARRAY_REMOVE, ARRAY_REPLACE, ARRAY_TO_STRING, STRING_TO_ARRAY -> ArrayFuncs.nullForNullConstant(call);
            case JSONB_BUILD_OBJECT, JSONB_BUILD_ARRAY -> false;
            case BETWEEN -> args.size() == 3 && isNullConstant(args.get(1)) && isNullConstant(args.get(2));
            case IN -> !args.isEmpty() && (isNullConstant(args.get(0))
                    || (args.size() > 1 && args.subList(1, args.size()).stream().allMatch(ExprCompiler::isNullConstant)));
            default -> args.stream().anyMatch(ExprCompiler::isNullConstant);
        };
    }

    /** A NULL literal, possibly cast (a cast of NULL is NULL). */
    static boolean isNullConstant(Expr e) {
        return switch (e) {
            case Expr.Literal l -> l.value() == null;
            case Expr.Cast c -> isNullConstant(c.input());
            default -> false;
        };
    }

    public static List<Evaluator> compileAll(List<Expr> exprs, EvalContext ctx) {
        List<Evaluator> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) out.add(compile(e, ctx));
        return out;
    }
}
