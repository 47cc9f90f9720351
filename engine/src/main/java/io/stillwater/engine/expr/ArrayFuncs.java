package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The array functions and operators of {@link Func} (constructor, subscript, ANY/ALL,
 * containment, array_* functions) with PostgreSQL's semantics, including its NULL rules:
 * the constructor and array_append/prepend/cat are not strict (a NULL array is treated as
 * empty), array_position/remove/replace match NULL elements, and containment never
 * matches a NULL element. Arrays are {@link PgArray}s; a multi-dimensional array nests them.
 */
final class ArrayFuncs {
    private ArrayFuncs() {}

    /** Whether a NULL constant argument makes the whole call NULL (see {@link ExprCompiler#nullForNullConstant}). */
    static boolean nullForNullConstant(Expr.Call call) {
        List<Expr> args = call.args();
        return switch (call.func()) {
            case ANY_OP, ALL_OP -> ExprCompiler.isNullConstant(args.get(2));
            case ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_REMOVE, ARRAY_REPLACE -> ExprCompiler.isNullConstant(args.get(0));
            case ARRAY_TO_STRING -> ExprCompiler.isNullConstant(args.get(0)) || ExprCompiler.isNullConstant(args.get(1));
            case STRING_TO_ARRAY -> ExprCompiler.isNullConstant(args.get(0));
            default -> false; // ARRAY, ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT
        };
    }

    static Evaluator compile(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        ZoneId zone = ctx.timeZone();
        return switch (call.func()) {
            case ARRAY -> construct(args);
            case ARRAY_SUBSCRIPT -> Functions.strictN(args, ArrayFuncs::subscript);
            case ANY_OP, ALL_OP -> quantified(call, args, zone);
            case CARDINALITY -> Functions.strict1(args, a -> ((PgArray) a).flatten().size());
            case ARRAY_LENGTH, ARRAY_UPPER -> Functions.strict2(args, (a, d) -> dimension((PgArray) a, d));
            case ARRAY_LOWER -> Functions.strict2(args, (a, d) -> dimension((PgArray) a, d) == null ? null : 1);
            case ARRAY_NDIMS -> Functions.strict1(args, a -> ((PgArray) a).isEmpty() ? null : ((PgArray) a).dimensions().length);
            case ARRAY_DIMS -> Functions.strict1(args, a -> dims((PgArray) a));
            case ARRAY_TO_STRING -> arrayToString(call, args, zone);
            case STRING_TO_ARRAY -> stringToArray(args);
            case ARRAY_POSITION -> position(call, args, zone);
            case ARRAY_POSITIONS -> positions(call, args, zone);
            case ARRAY_APPEND -> {
                Evaluator a = args.get(0), e = args.get(1);
                yield row -> append(orEmpty(a.eval(row)), List.of(), e.eval(row));
            }
            case ARRAY_PREPEND -> {
                Evaluator e = args.get(0), a = args.get(1);
                yield row -> {
                    Object v = e.eval(row);
                    List<Object> out = new ArrayList<>();
                    out.add(v);
                    out.addAll(orEmpty(a.eval(row)).elements());
                    return PgArray.of(out);
                };
            }
            case ARRAY_CAT -> {
                Evaluator a = args.get(0), b = args.get(1);
                yield row -> {
                    Object x = a.eval(row), y = b.eval(row);
                    if (x == null) return y;
                    if (y == null) return x;
                    List<Object> out = new ArrayList<>(((PgArray) x).elements());
                    out.addAll(((PgArray) y).elements());
                    return PgArray.of(out);
                };
            }
            case ARRAY_REMOVE -> replace(call, args, zone, false);
            case ARRAY_REPLACE -> replace(call, args, zone, true);
            case ARRAY_CONTAINS -> Functions.strict2(args, (a, b) -> contains((PgArray) a, (PgArray) b, comparator(call, 0, 1, zone)));
            case ARRAY_CONTAINED -> Functions.strict2(args, (a, b) -> contains((PgArray) b, (PgArray) a, comparator(call, 1, 0, zone)));
            case ARRAY_OVERLAP -> Functions.strict2(args, (a, b) -> overlaps((PgArray) a, (PgArray) b, comparator(call, 0, 1, zone)));
            default -> throw new IllegalArgumentException("not an array function: " + call.func());
        };
    }

    private static PgArray orEmpty(Object a) { return a == null ? PgArray.empty() : (PgArray) a; }

    private static PgArray append(PgArray a, List<Object> before, Object e) {
        List<Object> out = new ArrayList<>(before);
        out.addAll(a.elements());
        out.add(e);
        return PgArray.of(out);
    }

    /** ARRAY[...]: scalar arguments are elements; array arguments are the sub-arrays of one more dimension. */
    private static Evaluator construct(List<Evaluator> args) {
        Evaluator[] es = args.toArray(new Evaluator[0]);
        return row -> {
            Object[] v = new Object[es.length];
            boolean nested = false;
            for (int i = 0; i < es.length; i++) {
                v[i] = es[i].eval(row);
                nested |= v[i] instanceof PgArray;
            }
            if (nested) return nest(v);
            return PgArray.of(v);
        };
    }

    private static PgArray nest(Object[] subs) {
        int len = -1;
        boolean allEmpty = true;
        for (Object s : subs) {
            if (!(s instanceof PgArray a)) {
                throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR,
                        "multidimensional arrays must have array expressions with matching dimensions");
            }
            if (len >= 0 && a.size() != len) {
                throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR,
                        "multidimensional arrays must have array expressions with matching dimensions");
            }
            len = a.size();
            allEmpty &= a.isEmpty();
        }
        return allEmpty ? PgArray.empty() : PgArray.of(subs);
    }

    /**
     * {@code a[i][j]...}: NULL out of range, and NULL when the indexes do not match the
     * number of dimensions (PostgreSQL's {@code a[1]} of a two-dimensional array is NULL).
     */
    private static Object subscript(Object[] v) {
        Object cur = v[0];
        for (int k = 1; k < v.length; k++) {
            if (!(cur instanceof PgArray a)) return null;
            long i = ((Number) v[k]).longValue();
            if (i < 1 || i > a.size()) return null;
            cur = a.get((int) (i - 1));
        }
        return cur instanceof PgArray ? null : cur;
    }

    /** The length of dimension {@code d} (1-based), NULL when there is no such dimension. */
    private static Integer dimension(PgArray a, Object d) {
        int[] dims = a.dimensions();
        long k = ((Number) d).longValue();
        return k >= 1 && k <= dims.length ? dims[(int) (k - 1)] : null;
    }

    private static String dims(PgArray a) {
        if (a.isEmpty()) return null;
        StringBuilder sb = new StringBuilder();
        for (int d : a.dimensions()) sb.append("[1:").append(d).append(']');
        return sb.toString();
    }

    // ---- comparisons

    /** Equality of an element of argument {@code arrayArg}'s elements with argument {@code otherArg}'s. */
    private static Comparator<Object> comparator(Expr.Call call, int arrayArg, int otherArg, ZoneId zone) {
        SqlType a = elementType(call.args().get(arrayArg).type());
        SqlType b = elementType(call.args().get(otherArg).type());
        return Functions.comparator(a, b, zone);
    }

    private static SqlType elementType(SqlType t) { return t.isArray() ? t.element() : t; }

    /** {@code value op ANY/ALL (array)}: three-valued, as a chain of OR/AND of the comparisons. */
    private static Evaluator quantified(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        String op = (String) ((Expr.Literal) call.args().get(0)).value();
        boolean any = call.func() == Func.ANY_OP;
        Comparator<Object> cmp = Functions.comparator(call.args().get(1).type(),
                elementType(call.args().get(2).type()), zone);
        Evaluator value = args.get(1), array = args.get(2);
        return row -> {
            Object arr = array.eval(row);
            if (arr == null) return null;
            List<Object> elements = ((PgArray) arr).flatten();
            if (elements.isEmpty()) return !any;
            Object x = value.eval(row);
            boolean sawNull = false;
            for (Object e : elements) {
                if (x == null || e == null) {
                    sawNull = true;
                    continue;
                }
                boolean r = test(op, cmp.compare(x, e));
                if (r == any) return any;
            }
            return sawNull ? null : !any;
        };
    }

    private static boolean test(String op, int c) {
        return switch (op) {
            case "=" -> c == 0;
            case "<>" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            case ">=" -> c >= 0;
            default -> throw new IllegalArgumentException("comparison " + op);
        };
    }

    /** {@code a @> b}: every element of {@code b} is in {@code a}; a NULL element never matches. */
    private static boolean contains(PgArray a, PgArray b, Comparator<Object> cmp) {
        List<Object> hay = a.flatten();
        for (Object x : b.flatten()) {
            if (x == null) return false;
            boolean found = false;
            for (Object y : hay) {
                if (y != null && cmp.compare(y, x) == 0) {
                    found = true;
                    break;
                }
            }
            if (!found) return false;
        }
        return true;
    }

    private static boolean overlaps(PgArray a, PgArray b, Comparator<Object> cmp) {
        List<Object> hay = b.flatten();
        for (Object x : a.flatten()) {
            if (x == null) continue;
            for (Object y : hay) if (y != null && cmp.compare(x, y) == 0) return true;
        }
        return false;
    }

    /** IS NOT DISTINCT FROM between an element and a searched value. */
    private static boolean same(Comparator<Object> cmp, Object e, Object v) {
        return e == null || v == null ? e == v : cmp.compare(e, v) == 0;
    }

    private static List<Object> oneDimensional(PgArray a) {
        if (a.isNested()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "searching for elements in multidimensional arrays is not supported");
        }
        return a.elements();
    }

    private static Evaluator position(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        Comparator<Object> cmp = comparator(call, 0, 1, zone);
        Evaluator a = args.get(0), v = args.get(1), start = args.size() > 2 ? args.get(2) : null;
        return row -> {
            Object arr = a.eval(row);
            if (arr == null) return null;
            Object x = v.eval(row);
            int from = 1;
            if (start != null) {
                Object s = start.eval(row);
                if (s == null) {
                    throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "initial position must not be null");
                }
                from = ((Number) s).intValue();
            }
            List<Object> es = oneDimensional((PgArray) arr);
            for (int i = Math.max(from, 1); i <= es.size(); i++) if (same(cmp, es.get(i - 1), x)) return i;
            return null;
        };
    }

    private static Evaluator positions(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        Comparator<Object> cmp = comparator(call, 0, 1, zone);
        Evaluator a = args.get(0), v = args.get(1);
        return row -> {
            Object arr = a.eval(row);
            if (arr == null) return null;
            Object x = v.eval(row);
            List<Object> es = oneDimensional((PgArray) arr);
            List<Object> out = new ArrayList<>();
            for (int i = 1; i <= es.size(); i++) if (same(cmp, es.get(i - 1), x)) out.add(i);
            return PgArray.of(out);
        };
    }

    /** array_remove (without {@code to}) or array_replace. */
    private static Evaluator replace(Expr.Call call, List<Evaluator> args, ZoneId zone, boolean replace) {
        Comparator<Object> cmp = comparator(call, 0, 1, zone);
        Evaluator a = args.get(0), v = args.get(1), to = replace ? args.get(2) : null;
        return row -> {
            Object arr = a.eval(row);
            if (arr == null) return null;
            Object x = v.eval(row);
            Object y = to == null ? null : to.eval(row);
            List<Object> es = oneDimensional((PgArray) arr);
            List<Object> out = new ArrayList<>(es.size());
            for (Object e : es) {
                if (!same(cmp, e, x)) out.add(e);
                else if (replace) out.add(y);
            }
            return PgArray.of(out);
        };
    }

    // ---- text

    private static Evaluator arrayToString(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        SqlType element = call.args().get(0).type().element();
        Evaluator a = args.get(0), sep = args.get(1), nulls = args.size() > 2 ? args.get(2) : null;
        return row -> {
            Object arr = a.eval(row);
            if (arr == null) return null;
            Object s = sep.eval(row);
            if (s == null) return null;
            Object nullText = nulls == null ? null : nulls.eval(row);
            StringBuilder sb = new StringBuilder();
            boolean first = true;
            for (Object e : ((PgArray) arr).flatten()) {
                if (e == null && nullText == null) continue;
                if (!first) sb.append(s);
                first = false;
                sb.append(e == null ? nullText : DatumText.format(element, e, zone));
            }
            return sb.toString();
        };
    }

    private static Evaluator stringToArray(List<Evaluator> args) {
        Evaluator str = args.get(0), sep = args.get(1), nulls = args.size() > 2 ? args.get(2) : null;
        return row -> {
            Object sv = str.eval(row);
            if (sv == null) return null;
            String s = (String) sv;
            Object d = sep.eval(row);
            String nullText = nulls == null ? null : (String) nulls.eval(row);
            List<Object> parts = new ArrayList<>();
            if (s.isEmpty()) return PgArray.empty();
            if (d == null) {
                s.codePoints().forEach(cp -> parts.add(new String(Character.toChars(cp))));
            } else if (((String) d).isEmpty()) {
                parts.add(s);
            } else {
                String delim = (String) d;
                int from = 0;
                while (true) {
                    int at = s.indexOf(delim, from);
                    if (at < 0) {
                        parts.add(s.substring(from));
                        break;
                    }
                    parts.add(s.substring(from, at));
                    from = at + delim.length();
                }
            }
            if (nullText != null) parts.replaceAll(p -> Objects.equals(p, nullText) ? null : p);
            return PgArray.of(parts);
        };
    }
}
