package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small helpers for building plans and running them in unit tests. */
final class TestPlans {
    private TestPlans() {}

    static Expr col(int i, SqlType t) { return new Expr.Column(i, t); }

    static Expr lit(Object v, SqlType t) { return new Expr.Literal(v, t); }

    static Expr call(Func f, SqlType t, Expr... args) { return new Expr.Call(f, List.of(args), t); }

    static AggCall agg(AggFunc f, SqlType type, Integer... args) {
        return new AggCall(f, List.of(args), false, -1, List.of(), type, f.name().toLowerCase());
    }

    static PlanNode.Constant values(List<SqlType> types, Object[]... rows) {
        List<Row> rs = new ArrayList<>();
        for (Object[] r : rows) rs.add(Row.of(r));
        return new PlanNode.Constant(rs, types);
    }

    /** One-shot read of a plan without stored inputs (constants, series). */
    static List<Row> read(PlanNode plan) {
        return rows(OneShotRead.run(plan, (id, asOf) -> Changes.empty(), 1, EvalContext.defaults(), Cancellation.NONE));
    }

    static List<Row> read(PlanNode plan, Map<Long, Changes> tables) {
        return rows(OneShotRead.run(plan, (id, asOf) -> tables.getOrDefault(id, Changes.empty()), 1,
                EvalContext.defaults(), Cancellation.NONE));
    }

    /** Expanded and sorted, for comparisons. */
    static List<Row> rows(Changes c) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) for (long j = 0; j < c.diff(i); j++) out.add(c.row(i));
        out.sort(null);
        return out;
    }

    /**
     * An expression compiler for tests that need arithmetic independent of the (still
     * growing) built-in functions: integer PLUS and DIVIDE, with division by zero raising
     * 22012 as PostgreSQL does; everything else goes to {@link ExprCompiler}.
     */
    static Evaluator compileWithArithmetic(Expr e, EvalContext ctx) {
        if (e instanceof Expr.Call c && (c.func() == Func.DIVIDE || c.func() == Func.PLUS)) {
            Evaluator a = compileWithArithmetic(c.args().get(0), ctx);
            Evaluator b = compileWithArithmetic(c.args().get(1), ctx);
            boolean divide = c.func() == Func.DIVIDE;
            return row -> {
                Object x = a.eval(row), y = b.eval(row);
                if (x == null || y == null) return null;
                int i = (Integer) x, j = (Integer) y;
                if (!divide) return i + j;
                if (j == 0) throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
                return i / j;
            };
        }
        if (e instanceof Expr.Call c) {
            List<Evaluator> args = new ArrayList<>();
            for (Expr a : c.args()) args.add(compileWithArithmetic(a, ctx));
            // The real function over pre-computed arguments (evaluated eagerly: fine for the strict
            // comparisons these tests use around arithmetic).
            Expr[] cols = new Expr[args.size()];
            for (int i = 0; i < cols.length; i++) cols[i] = new Expr.Column(i, c.args().get(i).type());
            Evaluator f = ExprCompiler.compile(new Expr.Call(c.func(), List.of(cols), c.type()), ctx);
            return row -> {
                Object[] vals = new Object[args.size()];
                for (int i = 0; i < vals.length; i++) vals[i] = args.get(i).eval(row);
                return f.eval(Row.wrap(vals));
            };
        }
        return ExprCompiler.compile(e, ctx);
    }
}
