package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Datums;
import java.util.List;

/**
 * The semantics of every {@link Func}: turns a call with compiled arguments into an
 * evaluator. Strict functions return NULL on any NULL argument without running.
 *
 * <p>PLACEHOLDER SCOPE: comparisons and boolean logic only; the rest is being written.
 */
final class Functions {
    private Functions() {}

    static Evaluator compile(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        return switch (call.func()) {
            case EQ -> cmp(args, c -> c == 0);
            case NE -> cmp(args, c -> c != 0);
            case LT -> cmp(args, c -> c < 0);
            case LE -> cmp(args, c -> c <= 0);
            case GT -> cmp(args, c -> c > 0);
            case GE -> cmp(args, c -> c >= 0);
            case AND -> row -> {
                boolean sawNull = false;
                for (Evaluator a : args) {
                    Object v = a.eval(row);
                    if (Boolean.FALSE.equals(v)) return false;
                    if (v == null) sawNull = true;
                }
                return sawNull ? null : true;
            };
            case OR -> row -> {
                boolean sawNull = false;
                for (Evaluator a : args) {
                    Object v = a.eval(row);
                    if (Boolean.TRUE.equals(v)) return true;
                    if (v == null) sawNull = true;
                }
                return sawNull ? null : false;
            };
            case NOT -> row -> {
                Object v = args.get(0).eval(row);
                return v == null ? null : !((Boolean) v);
            };
            case IS_NULL -> row -> args.get(0).eval(row) == null;
            case IS_NOT_NULL -> row -> args.get(0).eval(row) != null;
            default -> throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "function " + call.func().name().toLowerCase() + " is not supported yet");
        };
    }

    private interface CmpTest { boolean test(int c); }

    private static Evaluator cmp(List<Evaluator> args, CmpTest test) {
        Evaluator a = args.get(0), b = args.get(1);
        return row -> {
            Object x = a.eval(row);
            if (x == null) return null;
            Object y = b.eval(row);
            if (y == null) return null;
            return test.test(Datums.compare(x, y));
        };
    }
}
