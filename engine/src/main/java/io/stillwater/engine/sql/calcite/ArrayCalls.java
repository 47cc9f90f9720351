package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlKind;

/**
 * Builds the engine's calls for array expressions from translated arguments, casting
 * elements to the array's element type so that one array holds values of one Java class
 * (as {@link io.stillwater.engine.types.Datums#hash} requires): {@code ARRAY[1, 2.5]} is
 * numeric[] of BigDecimals, {@code array_append(bigint_array, 1)} appends a bigint.
 */
final class ArrayCalls {
    private ArrayCalls() {}

    /** Whether {@code f} takes an array argument whose elements the other arguments must match. */
    static boolean isArrayFunc(Func f) {
        return switch (f) {
            case ARRAY, ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT, ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_REMOVE,
                    ARRAY_REPLACE, ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP -> true;
            default -> false;
        };
    }

    /** A call of array function {@code f}, its arguments cast to the element type where needed. */
    static Expr call(Func f, List<Expr> args, SqlType type) {
        List<Expr> out = new ArrayList<>(args);
        switch (f) {
            case ARRAY -> {
                SqlType element = type.element();
                for (int i = 0; i < out.size(); i++) {
                    Expr a = out.get(i);
                    out.set(i, castTo(a, a.type().isArray() ? type : element));
                }
            }
            case ARRAY_APPEND -> out.set(1, castTo(out.get(1), elementOf(out.get(0), out.get(1))));
            case ARRAY_PREPEND -> out.set(0, castTo(out.get(0), elementOf(out.get(1), out.get(0))));
            case ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_REMOVE -> out.set(1, castTo(out.get(1), elementOf(out.get(0), out.get(1))));
            case ARRAY_REPLACE -> {
                out.set(1, castTo(out.get(1), elementOf(out.get(0), out.get(1))));
                out.set(2, castTo(out.get(2), elementOf(out.get(0), out.get(2))));
            }
            case ARRAY_CAT, ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP -> {
                if (out.get(0).type().isArray() && isStringLike(out.get(1).type())) {
                    out.set(1, castTo(out.get(1), out.get(0).type()));
                } else if (out.get(1).type().isArray() && isStringLike(out.get(0).type())) {
                    out.set(0, castTo(out.get(0), out.get(1).type()));
                } else if (f == Func.ARRAY_CAT && out.get(0).type().isArray()) {
                    out.set(1, castTo(out.get(1), type));
                    out.set(0, castTo(out.get(0), type));
                }
            }
            default -> { }
        }
        return new Expr.Call(f, out, type);
    }

    /** {@code array || x}: concatenation, append or prepend by which sides are arrays. */
    static Expr concat(List<Expr> args, SqlType type) {
        boolean left = args.get(0).type().isArray(), right = args.get(1).type().isArray();
        SqlType t = type.isArray() ? type : left ? args.get(0).type() : args.get(1).type();
        if (left && right) return call(Func.ARRAY_CAT, args, t);
        if (left) {
            if (isUntyped(args.get(1))) return call(Func.ARRAY_CAT, args, t);
            return call(Func.ARRAY_APPEND, args, t);
        }
        if (isUntyped(args.get(0))) return call(Func.ARRAY_CAT, args, t);
        return call(Func.ARRAY_PREPEND, args, t);
    }

    /** {@code value op ANY|ALL (array)}: Calcite's {@code = SOME} and {@code <> ALL} operators. */
    static Expr quantified(RexCall call, List<Expr> args, SqlType type) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        String op = name.substring(0, name.indexOf(' '));
        if (op.equals("!=")) op = "<>";
        Func f = call.getKind() == SqlKind.ALL ? Func.ALL_OP : Func.ANY_OP;
        Expr value = args.get(0), array = args.get(1);
        if (array.type().isArray()) value = castTo(value, array.type().element());
        return new Expr.Call(f, List.of(new Expr.Literal(op, SqlType.TEXT), value, array), type);
    }

    /** {@code PG_ANY('=', value, array)}: an untyped array (a string literal) is read as an array of the value's type. */
    static Expr quantified(Func f, List<Expr> args, SqlType type) {
        Expr value = args.get(1), array = args.get(2);
        if (!array.type().isArray()) array = new Expr.Cast(array, SqlType.arrayOf(value.type()));
        else value = castTo(value, array.type().element());
        return new Expr.Call(f, List.of(args.get(0), value, array), type);
    }

    /** A string literal: PostgreSQL's unknown type, which {@code array || '{...}'} reads as an array. */
    private static boolean isUntyped(Expr e) {
        return e.type().kind() == TypeKind.UNKNOWN || (e instanceof Expr.Literal && isStringLike(e.type()));
    }

    private static SqlType elementOf(Expr array, Expr fallback) {
        return array.type().isArray() ? array.type().element() : fallback.type();
    }

    private static Expr castTo(Expr e, SqlType t) {
        if (e.type().equals(t) || RexToExpr.sameType(e.type(), t)) return e;
        if (t.kind() == TypeKind.UNKNOWN) return e;
        if (e instanceof Expr.Literal l && l.value() == null) return new Expr.Literal(null, t);
        if (isStringLike(e.type()) && isStringLike(t) && !t.isArray()) return e;
        return new Expr.Cast(e, t);
    }

    private static boolean isStringLike(SqlType t) { return TypeMapping.isStringKind(t.kind()); }
}
