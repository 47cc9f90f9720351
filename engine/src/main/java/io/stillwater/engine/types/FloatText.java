package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * PostgreSQL 15's text format for {@code real} and {@code double precision}: the shortest
 * decimal that reads back to the same value (extra_float_digits = 1, the default since
 * PostgreSQL 12), in fixed notation when the decimal exponent is in [-4, 15) for double
 * ([-4, 6) for real) and otherwise as {@code 1.5e+20}, like PostgreSQL's Ryu output.
 */
final class FloatText {
    private FloatText() {}

    private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    static String formatDouble(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        if (d == 0) return (Double.doubleToRawLongBits(d) < 0) ? "-0" : "0";
        // Java 19+ Double.toString is the shortest round-trip decimal (JDK-4511638).
        BigDecimal shortest = new BigDecimal(Double.toString(d));
        return layout(excludeBounds(shortest, d, Math.nextDown(d), Math.nextUp(d), 17), 15);
    }

    /**
     * Java accepts a decimal lying exactly halfway to a neighbouring float when round-half-even
     * maps it back; PostgreSQL's Ryu never does (1152921504609999872::float8 prints
     * 1.1529215046099999e+18, not 1.15292150461e+18). Lengthen such a result to the
     * nearest decimal strictly inside the rounding interval.
     */
    private static BigDecimal excludeBounds(BigDecimal shortest, double v, double down, double up, int maxDigits) {
        BigDecimal exact = new BigDecimal(v);
        BigDecimal two = BigDecimal.valueOf(2);
        BigDecimal low = Double.isInfinite(down) ? null : exact.add(new BigDecimal(down)).divide(two);
        BigDecimal high = Double.isInfinite(up) ? null : exact.add(new BigDecimal(up)).divide(two);
        boolean onBound = (low != null && shortest.compareTo(low) == 0) || (high != null && shortest.compareTo(high) == 0);
        if (!onBound) return shortest;
        for (int n = shortest.stripTrailingZeros().precision() + 1; n <= maxDigits; n++) {
            BigDecimal c = exact.round(new MathContext(n, RoundingMode.HALF_EVEN));
            if ((low == null || c.compareTo(low) > 0) && (high == null || c.compareTo(high) < 0)) return c;
        }
        return shortest;
    }

    static String formatFloat(float f) {
        if (Float.isNaN(f)) return "NaN";
        if (Float.isInfinite(f)) return f > 0 ? "Infinity" : "-Infinity";
        if (f == 0) return (Float.floatToRawIntBits(f) < 0) ? "-0" : "0";
        BigDecimal shortest = new BigDecimal(Float.toString(f));
        return layout(excludeBounds(shortest, f, Math.nextDown(f), Math.nextUp(f), 9), 6);
    }

    private static String layout(BigDecimal v, int fixedLimit) {
        v = v.stripTrailingZeros();
        String digits = v.unscaledValue().abs().toString();
        int exp = digits.length() - v.scale() - 1; // decimal exponent of the leading digit
        String sign = v.signum() < 0 ? "-" : "";
        if (exp >= -4 && exp < fixedLimit) {
            BigDecimal plain = v.scale() < 0 ? v.setScale(0) : v;
            return plain.toPlainString();
        }
        StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
        if (digits.length() > 1) sb.append('.').append(digits, 1, digits.length());
        sb.append('e').append(exp < 0 ? '-' : '+');
        int ae = Math.abs(exp);
        if (ae < 10) sb.append('0');
        sb.append(ae);
        return sb.toString();
    }

    /** PostgreSQL float8in/float4in: trimmed, Infinity/NaN in any case, range-checked. */
    static double parseDouble(String text, boolean real) {
        String typeName = real ? "real" : "double precision";
        String s = text.strip();
        String lower = s.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "nan", "+nan", "-nan": return Double.NaN;
            case "infinity", "+infinity", "inf", "+inf": return Double.POSITIVE_INFINITY;
            case "-infinity", "-inf": return Double.NEGATIVE_INFINITY;
            default: break;
        }
        if (!FLOAT.matcher(s).matches()) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type " + typeName + ": \"" + text + "\"");
        }
        int e = lower.indexOf('e');
        boolean nonZero = (e < 0 ? s : s.substring(0, e)).chars().anyMatch(c -> c >= '1' && c <= '9');
        double d = real ? Float.parseFloat(s) : Double.parseDouble(s);
        if (Double.isInfinite(d) || (d == 0 && nonZero)) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "\"" + text + "\" is out of range for type " + typeName);
        }
        return d;
    }
}
