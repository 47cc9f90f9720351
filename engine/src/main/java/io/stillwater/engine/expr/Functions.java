package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Casts;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.Datums;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.Numbers;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The semantics of every {@link Func}: turns a call with compiled arguments into an
 * evaluator. Strict functions return NULL on any NULL argument without running.
 *
 * <p>The implementation is chosen once per call site from the argument types and the
 * call's result type (never per row); the resulting evaluators are immutable and
 * thread-safe. Literal LIKE/regex patterns and date_part/date_trunc fields are compiled
 * once.
 */
final class Functions {
    private Functions() {}

    @FunctionalInterface
    interface Fn1 { Object apply(Object a); }

    @FunctionalInterface
    interface Fn2 { Object apply(Object a, Object b); }

    @FunctionalInterface
    interface FnN { Object apply(Object[] a); }

    static final String VERSION = "PostgreSQL 15.0 on stillwater";

    static Evaluator compile(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        Func f = call.func();
        TypeKind rk = call.type().kind();
        ZoneId zone = ctx.timeZone();
        return switch (f) {
            // ---------------------------------------------------------------- arithmetic
            case PLUS, MINUS, TIMES, DIVIDE, MOD -> arithmetic(call, args, zone);
            case NEGATE -> kind(call, 0) == TypeKind.INTERVAL
                    ? strict1(args, a -> DateTimeFuncs.negate((Interval) a))
                    : strict1(args, Arith.negate(numericKind(rk, call)));
            case ABS -> strict1(args, Arith.abs(numericKind(rk, call)));
            case POWER -> strict2(args, Arith.power(numericKind(rk, call)));
            case SQRT -> strict1(args, Arith.sqrt(numericKind(rk, call)));
            case EXP -> strict1(args, Arith.exp(numericKind(rk, call)));
            case LN -> strict1(args, Arith.ln(numericKind(rk, call)));
            case LOG10 -> strict1(args, Arith.log10(numericKind(rk, call)));
            case LOG -> args.size() == 1 ? strict1(args, Arith.log10(numericKind(rk, call)))
                    : strict2(args, Arith.log(numericKind(rk, call)));
            case CEIL, FLOOR, SIGN -> strict1(args, Arith.rounding(f, numericKind(rk, call)));
            case ROUND, TRUNC -> args.size() == 1 ? strict1(args, Arith.rounding(f, numericKind(rk, call)))
                    : strict2(args, Arith.roundingTo(f, numericKind(rk, call)));
            case CBRT, DEGREES, RADIANS, SIN, COS, TAN, ASIN, ACOS, ATAN, COT ->
                    strict1(args, Arith.doubleFn(f, numericKind(rk, call)));
            case ATAN2 -> strict2(args, (a, b) -> Arith.toKind(Math.atan2(Arith.d(a), Arith.d(b)), numericKind(rk, call)));
            case PI -> constant(Arith.toKind(Math.PI, numericKind(rk, call)));
            case RANDOM -> row -> ThreadLocalRandom.current().nextDouble();
            case BIT_AND, BIT_OR, BIT_XOR, SHIFT_LEFT, SHIFT_RIGHT -> strict2(args, Arith.bitwise(f, integerKind(rk, call)));
            case BIT_NOT -> {
                TypeKind k = integerKind(rk, call);
                yield strict1(args, a -> Arith.narrow(~Arith.l(a), k));
            }

            // ---------------------------------------------------------------- comparison
            case EQ -> compare(call, args, zone, c -> c == 0);
            case NE -> compare(call, args, zone, c -> c != 0);
            case LT -> compare(call, args, zone, c -> c < 0);
            case LE -> compare(call, args, zone, c -> c <= 0);
            case GT -> compare(call, args, zone, c -> c > 0);
            case GE -> compare(call, args, zone, c -> c >= 0);
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
                Comparator<Object> cmp = comparator(call.args().get(0).type(), call.args().get(1).type(), zone);
                Evaluator a = args.get(0), b = args.get(1);
                boolean distinct = f == Func.IS_DISTINCT_FROM;
                yield row -> {
                    Object x = a.eval(row), y = b.eval(row);
                    boolean same = x == null || y == null ? x == y : cmp.compare(x, y) == 0;
                    return same != distinct;
                };
            }
            case BETWEEN -> {
                Comparator<Object> lo = comparator(call.args().get(0).type(), call.args().get(1).type(), zone);
                Comparator<Object> hi = comparator(call.args().get(0).type(), call.args().get(2).type(), zone);
                Evaluator a = args.get(0), b = args.get(1), c = args.get(2);
                yield row -> {
                    Object x = a.eval(row);
                    if (x == null) return null;
                    Object low = b.eval(row), high = c.eval(row);
                    Boolean ge = low == null ? null : lo.compare(x, low) >= 0;
                    if (Boolean.FALSE.equals(ge)) return false;
                    Boolean le = high == null ? null : hi.compare(x, high) <= 0;
                    if (Boolean.FALSE.equals(le)) return false;
                    return ge == null || le == null ? null : true;
                };
            }
            case IN -> in(call, args, zone);
            case GREATEST, LEAST -> {
                Comparator<Object> cmp = comparator(call.args().get(0).type(), call.args().get(0).type(), zone);
                int sign = f == Func.GREATEST ? 1 : -1;
                yield row -> {
                    Object best = null;
                    for (Evaluator e : args) {
                        Object v = e.eval(row);
                        if (v != null && (best == null || sign * cmp.compare(v, best) > 0)) best = v;
                    }
                    return best;
                };
            }

            // ---------------------------------------------------------------- logic
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
            case NOT -> strict1(args, a -> !((Boolean) a));
            case IS_NULL -> test(args, v -> v == null);
            case IS_NOT_NULL -> test(args, v -> v != null);
            case IS_TRUE -> test(args, Boolean.TRUE::equals);
            case IS_NOT_TRUE -> test(args, v -> !Boolean.TRUE.equals(v));
            case IS_FALSE -> test(args, Boolean.FALSE::equals);
            case IS_NOT_FALSE -> test(args, v -> !Boolean.FALSE.equals(v));
            case COALESCE -> row -> {
                for (Evaluator a : args) {
                    Object v = a.eval(row);
                    if (v != null) return v;
                }
                return null;
            };
            case NULLIF -> {
                Comparator<Object> cmp = comparator(call.args().get(0).type(), call.args().get(1).type(), zone);
                Evaluator a = args.get(0), b = args.get(1);
                yield row -> {
                    Object x = a.eval(row);
                    if (x == null) return null;
                    Object y = b.eval(row);
                    return y != null && cmp.compare(x, y) == 0 ? null : x;
                };
            }

            // ---------------------------------------------------------------- strings
            case CONCAT_OP -> {
                if (kind(call, 0) == TypeKind.BYTEA && kind(call, 1) == TypeKind.BYTEA) {
                    yield strict2(args, (a, b) -> {
                        byte[] x = ((ByteString) a).toByteArray(), y = ((ByteString) b).toByteArray();
                        byte[] r = Arrays.copyOf(x, x.length + y.length);
                        System.arraycopy(y, 0, r, x.length, y.length);
                        return ByteString.wrap(r);
                    });
                }
                Fn1 t0 = castText(call.args().get(0).type(), zone), t1 = castText(call.args().get(1).type(), zone);
                yield strict2(args, (a, b) -> (String) t0.apply(a) + (String) t1.apply(b));
            }
            case CONCAT -> {
                Fn1[] texts = new Fn1[args.size()];
                for (int i = 0; i < texts.length; i++) texts[i] = outputText(call.args().get(i).type(), zone);
                yield row -> {
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < texts.length; i++) {
                        Object v = args.get(i).eval(row);
                        if (v != null) sb.append((String) texts[i].apply(v));
                    }
                    return sb.toString();
                };
            }
            case LIKE, NOT_LIKE, ILIKE, NOT_ILIKE -> like(call, args);
            case SIMILAR_TO -> patternMatch(call, args, true,
                    (p, esc) -> Patterns.similar(p, esc == null ? '\\' : Patterns.escapeChar(esc)));
            case REGEXP_MATCH_OP -> patternMatch(call, args, false, (p, esc) -> Patterns.regex(p, false));
            case UPPER -> strict1(args, a -> StringFuncs.mapCodePoints((String) a, Character::toUpperCase));
            case LOWER -> strict1(args, a -> StringFuncs.mapCodePoints((String) a, Character::toLowerCase));
            case LENGTH, CHAR_LENGTH -> {
                TypeKind k = kind(call, 0);
                if (k == TypeKind.BYTEA) yield strict1(args, a -> ((ByteString) a).length());
                if (k == TypeKind.CHAR) yield strict1(args, a -> StringFuncs.len(stripTrailing((String) a)));
                yield strict1(args, a -> StringFuncs.len((String) a));
            }
            case OCTET_LENGTH, BIT_LENGTH -> {
                int mult = f == Func.BIT_LENGTH ? 8 : 1;
                if (kind(call, 0) == TypeKind.BYTEA) yield strict1(args, a -> ((ByteString) a).length() * mult);
                yield strict1(args, a -> StringFuncs.utf8((String) a).length * mult);
            }
            case SUBSTRING -> substring(call, args);
            case POSITION -> strict2(args, (n, h) -> StringFuncs.position((String) n, (String) h));
            case STRPOS -> strict2(args, (h, n) -> StringFuncs.position((String) n, (String) h));
            case BTRIM, LTRIM, RTRIM -> {
                boolean lead = f != Func.RTRIM, trail = f != Func.LTRIM;
                if (args.size() == 1) yield strict1(args, a -> StringFuncs.trim((String) a, " ", lead, trail));
                yield strict2(args, (a, c) -> StringFuncs.trim((String) a, (String) c, lead, trail));
            }
            case REPLACE -> strictN(args, v -> ((String) v[1]).isEmpty() ? v[0]
                    : ((String) v[0]).replace((String) v[1], (String) v[2]));
            case REVERSE -> strict1(args, a -> StringFuncs.reverse((String) a));
            case REPEAT -> strict2(args, (a, n) -> StringFuncs.repeat((String) a, Arith.l(n)));
            case LEFT -> strict2(args, (a, n) -> StringFuncs.left((String) a, Arith.l(n)));
            case RIGHT -> strict2(args, (a, n) -> StringFuncs.right((String) a, Arith.l(n)));
            case LPAD, RPAD -> {
                boolean leftSide = f == Func.LPAD;
                yield strictN(args, v -> StringFuncs.pad((String) v[0], Arith.l(v[1]),
                        v.length > 2 ? (String) v[2] : " ", leftSide));
            }
            case INITCAP -> strict1(args, a -> StringFuncs.initcap((String) a));
            case SPLIT_PART -> strictN(args, v -> StringFuncs.splitPart((String) v[0], (String) v[1], Arith.l(v[2])));
            case TRANSLATE -> strictN(args, v -> StringFuncs.translate((String) v[0], (String) v[1], (String) v[2]));
            case ASCII -> strict1(args, a -> StringFuncs.ascii((String) a));
            case CHR -> strict1(args, a -> StringFuncs.chr(Arith.l(a)));
            case MD5 -> kind(call, 0) == TypeKind.BYTEA
                    ? strict1(args, a -> StringFuncs.md5(((ByteString) a).toByteArray()))
                    : strict1(args, a -> StringFuncs.md5(StringFuncs.utf8((String) a)));
            case TO_HEX -> strict1(args, StringFuncs::toHex);
            case STARTS_WITH -> strict2(args, (a, b) -> ((String) a).startsWith((String) b));
            case QUOTE_IDENT -> strict1(args, a -> StringFuncs.quoteIdent((String) a));
            case QUOTE_LITERAL -> {
                Fn1 text = castText(call.args().get(0).type(), zone);
                yield strict1(args, a -> StringFuncs.quoteLiteral((String) text.apply(a)));
            }

            // ---------------------------------------------------------------- date/time
            case NOW, CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME -> {
                Instant now = ctx.statementTime().truncatedTo(ChronoUnit.MICROS);
                TypeKind k = rk != TypeKind.UNKNOWN ? rk : switch (f) {
                    case CURRENT_DATE -> TypeKind.DATE;
                    case CURRENT_TIME -> TypeKind.TIME;
                    case LOCALTIMESTAMP -> TypeKind.TIMESTAMP;
                    default -> TypeKind.TIMESTAMPTZ;
                };
                Object v = switch (k) {
                    case DATE -> LocalDate.ofInstant(now, zone);
                    case TIME -> LocalTime.ofInstant(now, zone);
                    case TIMESTAMP -> LocalDateTime.ofInstant(now, zone);
                    default -> now;
                };
                yield constant(v);
            }
            case DATE_PART, EXTRACT -> datePart(call, args, zone);
            case DATE_TRUNC -> dateTrunc(call, args, zone);
            case AGE -> age(call, args, ctx);
            case MAKE_DATE -> strictN(args, v -> DateTimeFuncs.makeDate(Arith.l(v[0]), Arith.l(v[1]), Arith.l(v[2])));
            case MAKE_TIMESTAMP -> strictN(args, v -> DateTimeFuncs.makeTimestamp(Arith.l(v[0]), Arith.l(v[1]),
                    Arith.l(v[2]), Arith.l(v[3]), Arith.l(v[4]), Arith.d(v[5])));
            case TO_TIMESTAMP -> {
                if (args.size() == 2) {
                    yield strict2(args, (s, fmt) -> ToChar.parseTimestamp((String) s, (String) fmt, zone));
                }
                yield strict1(args, a -> DateTimeFuncs.toTimestamp(Arith.d(a)));
            }
            case TO_CHAR -> toChar(call, args, zone);
            case JUSTIFY_DAYS -> strict1(args, a -> DateTimeFuncs.justifyDays((Interval) a));
            case JUSTIFY_HOURS -> strict1(args, a -> DateTimeFuncs.justifyHours((Interval) a));
            case JUSTIFY_INTERVAL -> strict1(args, a -> DateTimeFuncs.justifyInterval((Interval) a));

            // ---------------------------------------------------------------- misc
            case PG_TYPEOF -> constant(call.args().get(0).type().displayName());
            case ARRAY, ARRAY_SUBSCRIPT, ANY_OP, ALL_OP, CARDINALITY, ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER,
                    ARRAY_NDIMS, ARRAY_DIMS, ARRAY_TO_STRING, STRING_TO_ARRAY, ARRAY_POSITION, ARRAY_POSITIONS,
                    ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT, ARRAY_REMOVE, ARRAY_REPLACE, ARRAY_CONTAINS,
                    ARRAY_CONTAINED, ARRAY_OVERLAP -> ArrayFuncs.compile(call, args, ctx);
            case JSONB_GET, JSONB_GET_TEXT, JSONB_PATH, JSONB_PATH_TEXT, JSONB_CONTAINS, JSONB_CONTAINED, JSONB_EXISTS,
                    JSONB_EXISTS_ANY, JSONB_EXISTS_ALL, JSONB_CONCAT, JSONB_DELETE, JSONB_DELETE_PATH, JSONB_BUILD_OBJECT,
                    JSONB_BUILD_ARRAY, TO_JSONB, JSONB_TYPEOF, JSONB_ARRAY_LENGTH, JSONB_EXTRACT_PATH,
                    JSONB_EXTRACT_PATH_TEXT, JSONB_SET, JSONB_STRIP_NULLS, JSONB_PRETTY -> JsonbFuncs.compile(call, args, ctx);
            case VERSION -> constant(VERSION);
            case CURRENT_USER -> constant(ctx.user());
            case CURRENT_DATABASE -> constant(ctx.database());
            case CURRENT_SCHEMA -> constant("public");
            case ENCODE -> strict2(args, (b, fmt) -> StringFuncs.encode((ByteString) b, (String) fmt));
            case DECODE -> strict2(args, (s, fmt) -> StringFuncs.decode((String) s, (String) fmt));
            case GET_BYTE -> strict2(args, (b, n) -> StringFuncs.getByte((ByteString) b, Arith.l(n)));
        };
    }

    // ==================================================================== helpers

    static TypeKind kind(Expr.Call call, int i) {
        return call.args().get(i).type().kind();
    }

    static Evaluator constant(Object v) {
        return row -> v;
    }

    static Evaluator strict1(List<Evaluator> args, Fn1 f) {
        Evaluator a = args.get(0);
        return row -> {
            Object x = a.eval(row);
            return x == null ? null : f.apply(x);
        };
    }

    static Evaluator strict2(List<Evaluator> args, Fn2 f) {
        Evaluator a = args.get(0), b = args.get(1);
        return row -> {
            Object x = a.eval(row);
            if (x == null) return null;
            Object y = b.eval(row);
            return y == null ? null : f.apply(x, y);
        };
    }

    static Evaluator strictN(List<Evaluator> args, FnN f) {
        Evaluator[] es = args.toArray(new Evaluator[0]);
        return row -> {
            Object[] v = new Object[es.length];
            for (int i = 0; i < es.length; i++) {
                v[i] = es[i].eval(row);
                if (v[i] == null) return null;
            }
            return f.apply(v);
        };
    }

    private static Evaluator test(List<Evaluator> args, Predicate<Object> p) {
        Evaluator a = args.get(0);
        return row -> p.test(a.eval(row));
    }

    /** The numeric kind to compute in: the call's result kind, else the widest argument kind. */
    private static TypeKind numericKind(TypeKind rk, Expr.Call call) {
        if (rk.isNumeric()) return rk;
        TypeKind best = TypeKind.SMALLINT;
        for (Expr e : call.args()) best = wider(best, e.type().kind());
        return best;
    }

    private static TypeKind integerKind(TypeKind rk, Expr.Call call) {
        if (rk.isInteger()) return rk;
        TypeKind k = numericKind(rk, call);
        return k.isInteger() ? k : TypeKind.BIGINT;
    }

    private static final List<TypeKind> NUMERIC_ORDER =
            List.of(TypeKind.SMALLINT, TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.NUMERIC, TypeKind.REAL, TypeKind.DOUBLE);

    static TypeKind wider(TypeKind a, TypeKind b) {
        int i = NUMERIC_ORDER.indexOf(a), j = NUMERIC_ORDER.indexOf(b);
        if (i < 0) return b;
        if (j < 0) return a;
        return i >= j ? a : b;
    }

    static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return s.substring(0, end);
    }

    /** A value rendered as by a cast to text (boolean 'true', char without padding). */
    static Fn1 castText(SqlType type, ZoneId zone) {
        if (type.kind() == TypeKind.TEXT || type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.UNKNOWN) {
            return a -> a instanceof String ? a : a.toString();
        }
        return a -> Casts.cast(a, type, SqlType.TEXT, zone);
    }

    /** A value rendered by its type's output function (boolean 't'), as concat() does. */
    static Fn1 outputText(SqlType type, ZoneId zone) {
        if (type.kind().isString() || type.kind() == TypeKind.UNKNOWN) return a -> a instanceof String ? a : a.toString();
        return a -> DatumText.format(type, a, zone);
    }

    // ==================================================================== comparison

    private interface CmpTest { boolean test(int c); }

    /** PostgreSQL float order: NaN equals NaN and sorts above everything; -0 equals 0. */
    static int compareFloats(double x, double y) {
        if (Double.isNaN(x)) return Double.isNaN(y) ? 0 : 1;
        if (Double.isNaN(y)) return -1;
        return x < y ? -1 : x > y ? 1 : 0;
    }

    /** The comparison for values of types {@code a} and {@code b}, chosen once per call site. */
    static Comparator<Object> comparator(SqlType a, SqlType b, ZoneId zone) {
        TypeKind x = a.kind(), y = b.kind();
        if (x == TypeKind.REAL || x == TypeKind.DOUBLE || y == TypeKind.REAL || y == TypeKind.DOUBLE) {
            return (p, q) -> compareFloats(((Number) p).doubleValue(), ((Number) q).doubleValue());
        }
        if (x == TypeKind.CHAR || y == TypeKind.CHAR) {
            return (p, q) -> stripTrailing((String) p).compareTo(stripTrailing((String) q));
        }
        if (x != y && isDateTime(x) && isDateTime(y)) {
            Function<Object, Object> nx = dateTimeNormalizer(x, y, zone), ny = dateTimeNormalizer(y, x, zone);
            return (p, q) -> Datums.compare(nx.apply(p), ny.apply(q));
        }
        return Datums::compare;
    }

    private static boolean isDateTime(TypeKind k) {
        return k == TypeKind.DATE || k == TypeKind.TIMESTAMP || k == TypeKind.TIMESTAMPTZ;
    }

    /** Promotes a date/timestamp to the other side's type for a mixed comparison. */
    private static Function<Object, Object> dateTimeNormalizer(TypeKind self, TypeKind other, ZoneId zone) {
        TypeKind target = self == TypeKind.TIMESTAMPTZ || other == TypeKind.TIMESTAMPTZ ? TypeKind.TIMESTAMPTZ : TypeKind.TIMESTAMP;
        if (self == target) return v -> v;
        return v -> Casts.cast(v, SqlType.of(self), SqlType.of(target), zone);
    }

    private static Evaluator compare(Expr.Call call, List<Evaluator> args, ZoneId zone, CmpTest test) {
        Comparator<Object> cmp = comparator(call.args().get(0).type(), call.args().get(1).type(), zone);
        Evaluator a = args.get(0), b = args.get(1);
        return row -> {
            Object x = a.eval(row);
            if (x == null) return null;
            Object y = b.eval(row);
            if (y == null) return null;
            return test.test(cmp.compare(x, y));
        };
    }

    private static Evaluator in(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        int n = args.size();
        @SuppressWarnings("unchecked")
        Comparator<Object>[] cmps = new Comparator[n];
        for (int i = 1; i < n; i++) cmps[i] = comparator(call.args().get(0).type(), call.args().get(i).type(), zone);
        Evaluator needle = args.get(0);
        return row -> {
            Object x = needle.eval(row);
            if (x == null) return null;
            boolean sawNull = false;
            for (int i = 1; i < n; i++) {
                Object v = args.get(i).eval(row);
                if (v == null) sawNull = true;
                else if (cmps[i].compare(x, v) == 0) return true;
            }
            return sawNull ? null : false;
        };
    }

    // ==================================================================== arithmetic

    private static Evaluator arithmetic(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        TypeKind a = kind(call, 0), b = kind(call, 1), r = call.type().kind();
        if (a.isTemporal() || b.isTemporal()) return strict2(args, temporal(call.func(), a, b, r, zone));
        return strict2(args, Arith.binary(call.func(), numericKind(r, call)));
    }

    private static SqlException noOperator(Func op, TypeKind a, TypeKind b) {
        String sym = switch (op) {
            case PLUS -> "+";
            case MINUS -> "-";
            case TIMES -> "*";
            case DIVIDE -> "/";
            default -> "%";
        };
        return new SqlException(SqlState.UNDEFINED_FUNCTION,
                "operator does not exist: " + a.pgName() + " " + sym + " " + b.pgName(), null,
                "No operator matches the given name and argument types. You might need to add explicit type casts.");
    }

    /** Date/time arithmetic, chosen from the argument kinds as PostgreSQL's operator catalog does. */
    private static Fn2 temporal(Func op, TypeKind a, TypeKind b, TypeKind r, ZoneId zone) {
        TypeKind D = TypeKind.DATE, T = TypeKind.TIME, TS = TypeKind.TIMESTAMP, TZ = TypeKind.TIMESTAMPTZ, I = TypeKind.INTERVAL;
        switch (op) {
            case PLUS -> {
                if (b.isTemporal() && !a.isTemporal() || (b == D && a != D) || (a == I && b != I)) {
                    Fn2 swapped = temporal(op, b, a, r, zone);
                    return (x, y) -> swapped.apply(y, x);
                }
                if (a == D && b.isInteger()) return (x, y) -> DateTimeFuncs.plusDays((LocalDate) x, Arith.l(y));
                if (a == D && b == I) {
                    if (r == TZ) return (x, y) -> DateTimeFuncs.plus(((LocalDate) x).atStartOfDay(zone).toInstant(), (Interval) y, zone);
                    return (x, y) -> DateTimeFuncs.plus(((LocalDate) x).atStartOfDay(), (Interval) y);
                }
                if (a == D && b == T) return (x, y) -> LocalDateTime.of((LocalDate) x, (LocalTime) y);
                if (a == TS && b == I) return (x, y) -> DateTimeFuncs.plus((LocalDateTime) x, (Interval) y);
                if (a == TZ && b == I) return (x, y) -> DateTimeFuncs.plus((Instant) x, (Interval) y, zone);
                if (a == T && b == I) return (x, y) -> DateTimeFuncs.plus((LocalTime) x, (Interval) y);
                if (a == I && b == I) return (x, y) -> DateTimeFuncs.add((Interval) x, (Interval) y);
            }
            case MINUS -> {
                if (a == D && b.isInteger()) return (x, y) -> DateTimeFuncs.plusDays((LocalDate) x, -Arith.l(y));
                if (a == D && b == D) return (x, y) -> (int) ChronoUnit.DAYS.between((LocalDate) y, (LocalDate) x);
                if (b == I && a != I) {
                    Fn2 plus = temporal(Func.PLUS, a, b, r, zone);
                    return (x, y) -> plus.apply(x, DateTimeFuncs.negate((Interval) y));
                }
                if (a == I && b == I) return (x, y) -> DateTimeFuncs.add((Interval) x, DateTimeFuncs.negate((Interval) y));
                if ((a == TS || a == D) && (b == TS || b == D)) {
                    return (x, y) -> DateTimeFuncs.difference(DateTimeFuncs.micros(toTs(x), toTs(y)));
                }
                if (a == TZ || b == TZ) {
                    if (isDateTime(a) && isDateTime(b)) {
                        return (x, y) -> DateTimeFuncs.difference(DateTimeFuncs.micros(toTz(x, zone), toTz(y, zone)));
                    }
                }
                if (a == T && b == T) {
                    return (x, y) -> new Interval(0, 0, (((LocalTime) x).toNanoOfDay() - ((LocalTime) y).toNanoOfDay()) / 1000);
                }
            }
            case TIMES -> {
                if (a == I && b.isNumeric()) return (x, y) -> DateTimeFuncs.multiply((Interval) x, Arith.d(y));
                if (b == I && a.isNumeric()) return (x, y) -> DateTimeFuncs.multiply((Interval) y, Arith.d(x));
            }
            case DIVIDE -> {
                if (a == I && b.isNumeric()) return (x, y) -> DateTimeFuncs.divide((Interval) x, Arith.d(y));
            }
            default -> { }
        }
        throw noOperator(op, a, b);
    }

    private static LocalDateTime toTs(Object v) {
        return v instanceof LocalDate d ? d.atStartOfDay() : (LocalDateTime) v;
    }

    private static Instant toTz(Object v, ZoneId zone) {
        if (v instanceof Instant i) return i;
        return toTs(v).atZone(zone).toInstant();
    }

    // ==================================================================== strings

    private interface PatternCompiler { Pattern compile(String pattern, String escape); }

    private static Evaluator like(Expr.Call call, List<Evaluator> args) {
        boolean ci = call.func() == Func.ILIKE || call.func() == Func.NOT_ILIKE;
        boolean negate = call.func() == Func.NOT_LIKE || call.func() == Func.NOT_ILIKE;
        Evaluator match = patternMatch(call, args, true,
                (p, esc) -> Patterns.like(p, esc == null ? '\\' : Patterns.escapeChar(esc), ci));
        if (!negate) return match;
        return row -> {
            Object v = match.eval(row);
            return v == null ? null : !((Boolean) v);
        };
    }

    /**
     * Matches args[0] against the pattern args[1] (escape args[2] if present). A literal
     * pattern (and escape) compiles once; otherwise the last pattern is cached per call site.
     */
    private static Evaluator patternMatch(Expr.Call call, List<Evaluator> args, boolean whole, PatternCompiler pc) {
        boolean hasEscape = args.size() > 2;
        Evaluator subject = args.get(0), pattern = args.get(1), escape = hasEscape ? args.get(2) : null;
        boolean literal = call.args().get(1) instanceof Expr.Literal pl && pl.value() != null
                && (!hasEscape || call.args().get(2) instanceof Expr.Literal el && el.value() != null);
        if (literal) {
            Pattern p = pc.compile((String) ((Expr.Literal) call.args().get(1)).value(),
                    hasEscape ? (String) ((Expr.Literal) call.args().get(2)).value() : null);
            return row -> {
                Object s = subject.eval(row);
                if (s == null) return null;
                return whole ? p.matcher((String) s).matches() : p.matcher((String) s).find();
            };
        }
        record Cached(String pattern, String escape, Pattern compiled) {}
        AtomicReference<Cached> cache = new AtomicReference<>();
        return row -> {
            Object s = subject.eval(row);
            if (s == null) return null;
            Object p = pattern.eval(row);
            if (p == null) return null;
            String esc = null;
            if (hasEscape) {
                Object e = escape.eval(row);
                if (e == null) return null;
                esc = (String) e;
            }
            Cached c = cache.get();
            if (c == null || !c.pattern.equals(p) || !Objects.equals(c.escape, esc)) {
                c = new Cached((String) p, esc, pc.compile((String) p, esc));
                cache.set(c);
            }
            return whole ? c.compiled.matcher((String) s).matches() : c.compiled.matcher((String) s).find();
        };
    }

    private static Evaluator substring(Expr.Call call, List<Evaluator> args) {
        TypeKind k0 = kind(call, 0);
        if (args.size() >= 2 && kind(call, 1).isString()) {
            if (args.size() == 3) {
                // substring(s similar pattern escape e): the SQL-regex form.
                return strictN(args, v -> {
                    Pattern p = Patterns.similarSubstring((String) v[1], Patterns.escapeChar((String) v[2]));
                    var m = p.matcher((String) v[0]);
                    return m.matches() ? m.group(1) : null;
                });
            }
            if (call.args().get(1) instanceof Expr.Literal l && l.value() != null) {
                Pattern p = Patterns.regex((String) l.value(), false);
                return strict1(args, s -> StringFuncs.substringRegex((String) s, p));
            }
            return strict2(args, (s, p) -> StringFuncs.substringRegex((String) s, Patterns.regex((String) p, false)));
        }
        if (k0 == TypeKind.BYTEA) {
            if (args.size() == 2) return strict2(args, (s, from) -> StringFuncs.substringBytes((ByteString) s, Arith.l(from), null));
            return strictN(args, v -> StringFuncs.substringBytes((ByteString) v[0], Arith.l(v[1]), Arith.l(v[2])));
        }
        if (args.size() == 2) return strict2(args, (s, from) -> StringFuncs.substring((String) s, Arith.l(from), null));
        return strictN(args, v -> StringFuncs.substring((String) v[0], Arith.l(v[1]), Arith.l(v[2])));
    }

    // ==================================================================== date/time

    private static Evaluator datePart(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        boolean numeric = call.func() == Func.EXTRACT || call.type().kind() == TypeKind.NUMERIC;
        TypeKind src = kind(call, 1);
        // date_part(text, date) reads the date as a timestamp, as PostgreSQL's SQL wrapper does.
        boolean dateAsTimestamp = !numeric && src == TypeKind.DATE;
        TypeKind effective = dateAsTimestamp ? TypeKind.TIMESTAMP : src;
        TypeKind rk = call.type().kind();
        Fn2 f = (field, v) -> {
            Object source = dateAsTimestamp ? ((LocalDate) v).atStartOfDay() : v;
            BigDecimal r = DateTimeFuncs.extract((String) field, source, effective, zone);
            if (numeric) return r;
            return rk.isNumeric() && rk != TypeKind.DOUBLE ? Numbers.convert(r.doubleValue(), rk) : (Object) r.doubleValue();
        };
        return strict2(args, f);
    }

    private static Evaluator dateTrunc(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        TypeKind src = kind(call, 1), rk = call.type().kind();
        return switch (src) {
            case TIMESTAMP -> strict2(args, (f, v) -> DateTimeFuncs.trunc((String) f, (LocalDateTime) v, src));
            case TIMESTAMPTZ -> strict2(args, (f, v) -> DateTimeFuncs.trunc((String) f, (Instant) v, zone));
            case INTERVAL -> strict2(args, (f, v) -> DateTimeFuncs.trunc((String) f, (Interval) v));
            case DATE -> rk == TypeKind.TIMESTAMP || rk == TypeKind.DATE
                    ? strict2(args, (f, v) -> {
                        LocalDateTime t = DateTimeFuncs.trunc((String) f, ((LocalDate) v).atStartOfDay(), src);
                        return rk == TypeKind.DATE ? t.toLocalDate() : t;
                    })
                    : strict2(args, (f, v) -> DateTimeFuncs.trunc((String) f, ((LocalDate) v).atStartOfDay(zone).toInstant(), zone));
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "function date_trunc(unknown, " + src.pgName() + ") does not exist");
        };
    }

    private static Evaluator age(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        ZoneId zone = ctx.timeZone();
        Function<Object, LocalDateTime> local = v -> switch (v) {
            case LocalDateTime t -> t;
            case LocalDate d -> d.atStartOfDay();
            case Instant i -> LocalDateTime.ofInstant(i, zone);
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function age(" + v.getClass().getSimpleName() + ") does not exist");
        };
        if (args.size() == 1) {
            LocalDateTime today = LocalDate.ofInstant(ctx.statementTime(), zone).atStartOfDay();
            return strict1(args, v -> DateTimeFuncs.age(today, local.apply(v)));
        }
        return strict2(args, (a, b) -> DateTimeFuncs.age(local.apply(a), local.apply(b)));
    }

    private static Evaluator toChar(Expr.Call call, List<Evaluator> args, ZoneId zone) {
        TypeKind src = kind(call, 0);
        if (args.size() == 1) {
            Fn1 text = outputText(call.args().get(0).type(), zone);
            return strict1(args, text);
        }
        return switch (src) {
            case TIMESTAMP -> strict2(args, (v, fmt) -> ToChar.formatDateTime((LocalDateTime) v, null, (String) fmt));
            case DATE -> strict2(args, (v, fmt) -> ToChar.formatDateTime(((LocalDate) v).atStartOfDay(), null, (String) fmt));
            case TIMESTAMPTZ -> strict2(args, (v, fmt) -> ToChar.formatDateTime(
                    LocalDateTime.ofInstant((Instant) v, zone), ((Instant) v).atZone(zone), (String) fmt));
            case TIME -> strict2(args, (v, fmt) -> ToChar.formatDateTime(
                    LocalDate.of(1, 1, 1).atTime((LocalTime) v), null, (String) fmt));
            case INTERVAL -> strict2(args, (v, fmt) -> ToChar.formatInterval((Interval) v, (String) fmt));
            default -> {
                if (!src.isNumeric()) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                            "function to_char(" + src.pgName() + ", unknown) does not exist");
                }
                yield strict2(args, (v, fmt) -> ToChar.formatNumber((Number) v, (String) fmt));
            }
        };
    }
}
