package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Functions.Fn1;
import io.stillwater.engine.expr.Functions.Fn2;
import io.stillwater.engine.types.Numbers;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.DoubleUnaryOperator;

/**
 * Arithmetic and math functions over the numeric kinds, selected once per call site
 * from the result kind. Arguments are coerced defensively through {@link Number} so a
 * front end that forgot a cast still gets a value of the result kind.
 */
final class Arith {
    private Arith() {}

    static long l(Object o) { return ((Number) o).longValue(); }

    static double d(Object o) { return ((Number) o).doubleValue(); }

    static BigDecimal dec(Object o) { return Numbers.toBigDecimal((Number) o); }

    static SqlException divisionByZero() { return NumericMath.divisionByZero(); }

    /** Narrows a long to the integer kind {@code k}, or 22003 "<kind> out of range". */
    static Object narrow(long v, TypeKind k) {
        return switch (k) {
            case SMALLINT -> {
                if (v != (short) v) throw Numbers.outOfRange(k);
                yield (short) v;
            }
            case INTEGER -> {
                if (v != (int) v) throw Numbers.outOfRange(k);
                yield (int) v;
            }
            default -> v;
        };
    }

    static Fn2 binary(Func op, TypeKind k) {
        return switch (k) {
            case SMALLINT, INTEGER -> switch (op) {
                case PLUS -> (a, b) -> narrow(l(a) + l(b), k);
                case MINUS -> (a, b) -> narrow(l(a) - l(b), k);
                case TIMES -> (a, b) -> narrow(l(a) * l(b), k);
                case DIVIDE -> (a, b) -> {
                    long y = l(b);
                    if (y == 0) throw divisionByZero();
                    return narrow(l(a) / y, k);
                };
                case MOD -> (a, b) -> {
                    long y = l(b);
                    if (y == 0) throw divisionByZero();
                    return narrow(l(a) % y, k);
                };
                default -> throw new IllegalArgumentException(op.name());
            };
            case BIGINT -> switch (op) {
                case PLUS -> (a, b) -> exact(() -> Math.addExact(l(a), l(b)));
                case MINUS -> (a, b) -> exact(() -> Math.subtractExact(l(a), l(b)));
                case TIMES -> (a, b) -> exact(() -> Math.multiplyExact(l(a), l(b)));
                case DIVIDE -> (a, b) -> {
                    long y = l(b);
                    if (y == 0) throw divisionByZero();
                    return exact(() -> Math.divideExact(l(a), y));
                };
                case MOD -> (a, b) -> {
                    long y = l(b);
                    if (y == 0) throw divisionByZero();
                    return y == -1 ? 0L : l(a) % y;
                };
                default -> throw new IllegalArgumentException(op.name());
            };
            case REAL -> switch (op) {
                case PLUS -> (a, b) -> checkFloat((float) (fl(a) + fl(b)), fl(a), fl(b), false);
                case MINUS -> (a, b) -> checkFloat((float) (fl(a) - fl(b)), fl(a), fl(b), false);
                case TIMES -> (a, b) -> checkFloat(fl(a) * fl(b), fl(a), fl(b), true);
                case DIVIDE -> (a, b) -> {
                    float y = fl(b);
                    if (y == 0) throw divisionByZero();
                    float x = fl(a), r = x / y;
                    if (Float.isInfinite(r) && !Float.isInfinite(x)) throw Numbers.floatOverflow();
                    if (r == 0 && x != 0 && !Float.isInfinite(y)) throw Numbers.floatUnderflow();
                    return r;
                };
                case MOD -> (a, b) -> {
                    float y = fl(b);
                    if (y == 0) throw divisionByZero();
                    return fl(a) % y;
                };
                default -> throw new IllegalArgumentException(op.name());
            };
            case DOUBLE -> switch (op) {
                case PLUS -> (a, b) -> checkDouble(d(a) + d(b), d(a), d(b), false);
                case MINUS -> (a, b) -> checkDouble(d(a) - d(b), d(a), d(b), false);
                case TIMES -> (a, b) -> checkDouble(d(a) * d(b), d(a), d(b), true);
                case DIVIDE -> (a, b) -> {
                    double y = d(b);
                    if (y == 0) throw divisionByZero();
                    double x = d(a), r = x / y;
                    if (Double.isInfinite(r) && !Double.isInfinite(x)) throw Numbers.floatOverflow();
                    if (r == 0 && x != 0 && !Double.isInfinite(y)) throw Numbers.floatUnderflow();
                    return r;
                };
                case MOD -> (a, b) -> {
                    double y = d(b);
                    if (y == 0) throw divisionByZero();
                    return d(a) % y;
                };
                default -> throw new IllegalArgumentException(op.name());
            };
            case NUMERIC -> switch (op) {
                case PLUS -> (a, b) -> dec(a).add(dec(b));
                case MINUS -> (a, b) -> dec(a).subtract(dec(b));
                case TIMES -> (a, b) -> dec(a).multiply(dec(b));
                case DIVIDE -> (a, b) -> NumericMath.divide(dec(a), dec(b));
                case MOD -> (a, b) -> NumericMath.mod(dec(a), dec(b));
                default -> throw new IllegalArgumentException(op.name());
            };
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "operator does not exist for type " + k.pgName());
        };
    }

    private interface LongOp { long get(); }

    private static Object exact(LongOp op) {
        try {
            return op.get();
        } catch (ArithmeticException e) {
            throw Numbers.outOfRange(TypeKind.BIGINT);
        }
    }

    private static float fl(Object o) { return ((Number) o).floatValue(); }

    private static float checkFloat(float r, float x, float y, boolean mul) {
        if (Float.isInfinite(r) && !Float.isInfinite(x) && !Float.isInfinite(y)) throw Numbers.floatOverflow();
        if (mul && r == 0 && x != 0 && y != 0) throw Numbers.floatUnderflow();
        return r;
    }

    static double checkDouble(double r, double x, double y, boolean mul) {
        if (Double.isInfinite(r) && !Double.isInfinite(x) && !Double.isInfinite(y)) throw Numbers.floatOverflow();
        if (mul && r == 0 && x != 0 && y != 0) throw Numbers.floatUnderflow();
        return r;
    }

    static Fn1 negate(TypeKind k) {
        return switch (k) {
            case SMALLINT, INTEGER -> a -> narrow(-l(a), k);
            case BIGINT -> a -> exact(() -> Math.negateExact(l(a)));
            case REAL -> a -> -fl(a);
            case DOUBLE -> a -> -d(a);
            case NUMERIC -> a -> dec(a).negate();
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: - " + k.pgName());
        };
    }

    static Fn1 abs(TypeKind k) {
        return switch (k) {
            case SMALLINT, INTEGER -> a -> narrow(Math.abs(l(a)), k);
            case BIGINT -> a -> exact(() -> Math.absExact(l(a)));
            case REAL -> a -> Math.abs(fl(a));
            case DOUBLE -> a -> Math.abs(d(a));
            case NUMERIC -> a -> dec(a).abs();
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function abs(" + k.pgName() + ") does not exist");
        };
    }

    // ------------------------------------------------------------ math functions

    static double checkResult(double r, double x) {
        if (Double.isInfinite(r) && !Double.isInfinite(x)) throw Numbers.floatOverflow();
        return r;
    }

    static Fn2 power(TypeKind k) {
        if (k == TypeKind.NUMERIC) return (a, b) -> NumericMath.power(dec(a), dec(b));
        return (a, b) -> {
            double x = d(a), y = d(b);
            if (x == 0 && y < 0) {
                throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION, "zero raised to a negative power is undefined");
            }
            if (x < 0 && Math.floor(y) != y && !Double.isInfinite(y) && !Double.isNaN(y)) {
                throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                        "a negative number raised to a non-integer power yields a complex result");
            }
            double r = Math.pow(x, y);
            if (Double.isInfinite(r) && !Double.isInfinite(x) && !Double.isInfinite(y)) throw Numbers.floatOverflow();
            if (r == 0 && x != 0 && !Double.isInfinite(y)) throw Numbers.floatUnderflow();
            return toKind(r, k);
        };
    }

    /** Converts a double computed for a non-double result kind (defensive). */
    static Object toKind(double r, TypeKind k) {
        return k == TypeKind.DOUBLE ? (Object) r : Numbers.convert(r, k);
    }

    static Fn1 sqrt(TypeKind k) {
        if (k == TypeKind.NUMERIC) return a -> NumericMath.sqrt(dec(a));
        return a -> {
            double x = d(a);
            if (x < 0) {
                throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION, "cannot take square root of a negative number");
            }
            return toKind(Math.sqrt(x), k);
        };
    }

    static Fn1 exp(TypeKind k) {
        if (k == TypeKind.NUMERIC) return a -> NumericMath.exp(dec(a));
        return a -> {
            double x = d(a), r = Math.exp(x);
            if (Double.isInfinite(r) && !Double.isInfinite(x)) throw Numbers.floatOverflow();
            if (r == 0 && !Double.isInfinite(x)) throw Numbers.floatUnderflow();
            return toKind(r, k);
        };
    }

    private static void checkLog(double x) {
        if (x == 0) throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of zero");
        if (x < 0) throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of a negative number");
    }

    static Fn1 ln(TypeKind k) {
        if (k == TypeKind.NUMERIC) return a -> NumericMath.ln(dec(a));
        return a -> {
            double x = d(a);
            checkLog(x);
            return toKind(Math.log(x), k);
        };
    }

    static Fn1 log10(TypeKind k) {
        if (k == TypeKind.NUMERIC) return a -> NumericMath.log10(dec(a));
        return a -> {
            double x = d(a);
            checkLog(x);
            return toKind(Math.log10(x), k);
        };
    }

    static Fn2 log(TypeKind k) {
        if (k == TypeKind.NUMERIC) return (b, x) -> NumericMath.log(dec(b), dec(x));
        return (b, x) -> {
            double base = d(b), v = d(x);
            checkLog(base);
            checkLog(v);
            double lb = Math.log(base);
            if (lb == 0) throw divisionByZero();
            return toKind(Math.log(v) / lb, k);
        };
    }

    static Fn1 rounding(Func f, TypeKind k) {
        return switch (k) {
            // ceil/floor/round/trunc of an integer is the integer itself; sign is -1, 0 or 1.
            case SMALLINT, INTEGER, BIGINT -> f == Func.SIGN
                    ? a -> Numbers.convert(Long.signum(((Number) a).longValue()), k)
                    : a -> Numbers.convert(a, k);
            case NUMERIC -> switch (f) {
                case CEIL -> a -> dec(a).setScale(0, RoundingMode.CEILING);
                case FLOOR -> a -> dec(a).setScale(0, RoundingMode.FLOOR);
                case ROUND -> a -> dec(a).setScale(0, RoundingMode.HALF_UP);
                case TRUNC -> a -> dec(a).setScale(0, RoundingMode.DOWN);
                case SIGN -> a -> BigDecimal.valueOf(dec(a).signum());
                default -> throw new IllegalArgumentException(f.name());
            };
            default -> {
                Fn1 g = switch (f) {
                    case CEIL -> a -> Math.ceil(d(a));
                    case FLOOR -> a -> Math.floor(d(a));
                    case ROUND -> a -> Math.rint(d(a));
                    case TRUNC -> a -> {
                        double x = d(a);
                        return x < 0 ? Math.ceil(x) : Math.floor(x);
                    };
                    case SIGN -> a -> Math.signum(d(a));
                    default -> throw new IllegalArgumentException(f.name());
                };
                yield k == TypeKind.DOUBLE ? g : a -> toKind((Double) g.apply(a), k);
            }
        };
    }

    /** round(numeric, int) half away from zero / trunc(numeric, int); negative places round left of the point. */
    static Fn2 roundingTo(Func f, TypeKind k) {
        RoundingMode mode = f == Func.ROUND ? RoundingMode.HALF_UP : RoundingMode.DOWN;
        Fn2 g = (a, b) -> {
            int places = (int) Math.max(Math.min(l(b), 2000), -2000);
            BigDecimal r = dec(a).setScale(places, mode);
            return places < 0 ? r.setScale(0) : r;
        };
        return k == TypeKind.NUMERIC ? g : (a, b) -> Numbers.convert(g.apply(a, b), k);
    }

    /** Double-only functions (trig, cbrt, degrees...): result converted to the call's kind. */
    static Fn1 doubleFn(Func f, TypeKind k) {
        DoubleUnaryOperator op = switch (f) {
            case CBRT -> Math::cbrt;
            case DEGREES -> Math::toDegrees;
            case RADIANS -> Math::toRadians;
            case SIN -> x -> trig(x, Math.sin(x));
            case COS -> x -> trig(x, Math.cos(x));
            case TAN -> x -> trig(x, Math.tan(x));
            case COT -> x -> {
                double t = trig(x, Math.tan(x));
                return 1.0 / t;
            };
            case ASIN -> x -> inverseTrig(x, Math.asin(x));
            case ACOS -> x -> inverseTrig(x, Math.acos(x));
            case ATAN -> Math::atan;
            default -> throw new IllegalArgumentException(f.name());
        };
        return a -> toKind(op.applyAsDouble(d(a)), k);
    }

    private static double trig(double x, double r) {
        if (Double.isInfinite(x)) throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "input is out of range");
        return r;
    }

    private static double inverseTrig(double x, double r) {
        if (!Double.isNaN(x) && (x < -1 || x > 1)) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "input is out of range");
        }
        return r;
    }

    static Fn2 bitwise(Func f, TypeKind k) {
        return switch (f) {
            case BIT_AND -> (a, b) -> narrow(l(a) & l(b), k);
            case BIT_OR -> (a, b) -> narrow(l(a) | l(b), k);
            case BIT_XOR -> (a, b) -> narrow(l(a) ^ l(b), k);
            case SHIFT_LEFT -> (a, b) -> switch (k) {
                case SMALLINT -> (short) (((short) l(a)) << (int) l(b));
                case INTEGER -> ((int) l(a)) << (int) l(b);
                default -> l(a) << (int) l(b);
            };
            case SHIFT_RIGHT -> (a, b) -> switch (k) {
                case SMALLINT -> (short) (((short) l(a)) >> (int) l(b));
                case INTEGER -> ((int) l(a)) >> (int) l(b);
                default -> l(a) >> (int) l(b);
            };
            default -> throw new IllegalArgumentException(f.name());
        };
    }
}
