package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Conversions among the numeric kinds with PostgreSQL's range checks and rounding:
 * float to integer rounds half to even (rint), numeric to integer rounds half away
 * from zero, float to numeric keeps 15 (double) or 6 (real) significant digits.
 */
public final class Numbers {
    private Numbers() {}

    public static SqlException outOfRange(TypeKind k) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, k.pgName() + " out of range");
    }

    public static SqlException floatOverflow() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    }

    public static SqlException floatUnderflow() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    }

    /** Converts a number of any numeric Java class to the class of kind {@code to}. */
    public static Object convert(Object v, TypeKind to) {
        Number n = (Number) v;
        return switch (to) {
            case SMALLINT -> (short) checkRange(toLongRounded(n, to), Short.MIN_VALUE, Short.MAX_VALUE, to);
            case INTEGER -> (int) checkRange(toLongRounded(n, to), Integer.MIN_VALUE, Integer.MAX_VALUE, to);
            case BIGINT -> toLongRounded(n, to);
            case REAL -> toFloat(n);
            case DOUBLE -> toDouble(n);
            case NUMERIC -> toBigDecimal(n);
            default -> throw new IllegalArgumentException("not numeric: " + to);
        };
    }

    private static long checkRange(long v, long min, long max, TypeKind k) {
        if (v < min || v > max) throw outOfRange(k);
        return v;
    }

    private static long toLongRounded(Number n, TypeKind k) {
        if (n instanceof Double || n instanceof Float) {
            double d = Math.rint(n.doubleValue());
            // 2^63 is the first double beyond long; -2^63 is exactly representable.
            if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) throw outOfRange(k);
            return (long) d;
        }
        if (n instanceof BigDecimal b) {
            BigDecimal r = b.setScale(0, RoundingMode.HALF_UP);
            if (r.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 || r.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw outOfRange(k);
            }
            return r.longValue();
        }
        return n.longValue();
    }

    public static float toFloat(Number n) {
        if (n instanceof Float f) return f;
        double d = n.doubleValue();
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) throw floatOverflow();
        if (f == 0 && d != 0) throw floatUnderflow();
        return f;
    }

    public static double toDouble(Number n) {
        if (n instanceof Double d) return d;
        double d = n.doubleValue();
        if (n instanceof BigDecimal b && (Double.isInfinite(d) || (d == 0 && b.signum() != 0))) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "\"" + b.toString() + "\" is out of range for type double precision");
        }
        return d;
    }

    public static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal b) return b;
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "cannot convert " + FloatText.formatDouble(d) + " to numeric: numeric NaN and Infinity are not supported");
            }
            if (d == 0) return BigDecimal.ZERO;
            int digits = n instanceof Float ? 6 : 15;
            BigDecimal r = new BigDecimal(d).round(new MathContext(digits, RoundingMode.HALF_EVEN)).stripTrailingZeros();
            return r.scale() < 0 ? r.setScale(0) : r;
        }
        return BigDecimal.valueOf(n.longValue());
    }
}
