package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
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
        return layout(new BigDecimal(Double.toString(d)), 15);
    }

    static String formatFloat(float f) {
        if (Float.isNaN(f)) return "NaN";
        if (Float.isInfinite(f)) return f > 0 ? "Infinity" : "-Infinity";
        if (f == 0) return (Float.floatToRawIntBits(f) < 0) ? "-0" : "0";
        return layout(new BigDecimal(Float.toString(f)), 6);
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
