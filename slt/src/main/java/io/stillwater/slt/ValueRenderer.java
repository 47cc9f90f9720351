package io.stillwater.slt;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Renders one result value as text, coerced to the type letter the script declares.
 *
 * <p>Input values are what {@link JdbcResults} extracts: {@code null}, {@link Long} (integer
 * and oid types), {@link Double} (float types, and numeric NaN/Infinity), {@link BigDecimal}
 * (numeric), {@link Boolean}, or {@link String} (everything else, in PostgreSQL's text form).
 *
 * <p>Rules (SQLite's {@code slt_sqlite.c} and Materialize's {@code format_datum}; where they
 * differ, the choice is noted):
 * <ul>
 *   <li>NULL is {@code NULL} for every type.
 *   <li>{@code I}: integers as {@code %d}; a float or numeric is truncated toward zero
 *       (SQLite's {@code sqlite3_column_int}; Materialize truncates floats the same way, and in
 *       cockroach mode we round numerics half away from zero, as PostgreSQL's numeric→int cast
 *       does); a boolean is 1/0; text takes its leading integer prefix, else 0 (SQLite;
 *       Materialize prints 0 for all text). Values are 64-bit (SQLite's runner wraps to 32).
 *   <li>{@code R}: standard mode {@code %.3f} of the value as a double, rounded from its exact
 *       binary value half-to-even like C's printf and Rust's {@code {:.3}} (-0.0 keeps its
 *       sign); numerics are converted to double first, as SQLite computes them. Cockroach mode
 *       prints the shortest exact digits ({@code 1.5}, {@code 2}) and numerics verbatim.
 *       NaN and infinities print as {@code NaN}, {@code inf}, {@code -inf} (Rust's spelling).
 *   <li>{@code T}: the empty string is {@code (empty)}; in standard mode control characters
 *       (U+0000–U+001F, U+007F) become {@code @} (SQLite also replaces non-ASCII bytes; we keep
 *       printable Unicode, as Materialize does); floats print {@code %.3f}; booleans
 *       {@code true}/{@code false}; numerics in plain notation.
 *   <li>{@code B}: {@code true}/{@code false}. {@code O}: the oid number.
 * </ul>
 */
public final class ValueRenderer {
    private ValueRenderer() {}

    /** Renders a value; {@code raw} disables the {@code @} substitution (multiline output). */
    public static String render(Object value, ColumnType type, Mode mode, boolean raw) {
        if (value == null) {
            return "NULL";
        }
        return switch (type) {
            case INTEGER, OID -> integer(value, mode);
            case REAL -> real(value, mode);
            case TEXT -> text(value, mode, raw);
            case BOOL -> bool(value);
        };
    }

    public static String render(Object value, ColumnType type, Mode mode) {
        return render(value, type, mode, false);
    }

    private static String integer(Object value, Mode mode) {
        return switch (value) {
            case Long l -> Long.toString(l);
            case Double d -> Long.toString(d.longValue()); // truncates toward zero, saturates, NaN -> 0
            case BigDecimal b -> b.setScale(0, mode == Mode.COCKROACH ? RoundingMode.HALF_UP : RoundingMode.DOWN)
                    .toPlainString();
            case Boolean b -> b ? "1" : "0";
            default -> Long.toString(leadingInteger(value.toString()));
        };
    }

    private static String real(Object value, Mode mode) {
        return switch (value) {
            case Long l -> mode == Mode.COCKROACH ? Long.toString(l) : l + ".000";
            case Double d -> mode == Mode.COCKROACH ? shortest(d) : fixed3(d);
            case BigDecimal b -> mode == Mode.COCKROACH ? b.toPlainString() : fixed3(b.doubleValue());
            case Boolean b -> b ? "1.000" : "0.000";
            default -> fixed3(leadingReal(value.toString()));
        };
    }

    private static String text(Object value, Mode mode, boolean raw) {
        String s = switch (value) {
            case Double d -> fixed3(d);
            case BigDecimal b -> b.toPlainString();
            case Boolean b -> b.toString();
            default -> value.toString();
        };
        if (s.isEmpty()) {
            return "(empty)";
        }
        if (raw || mode == Mode.COCKROACH) {
            return s;
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < ' ' || c == 0x7f) {
                if (out == null) {
                    out = new StringBuilder(s);
                }
                out.setCharAt(i, '@');
            }
        }
        return out == null ? s : out.toString();
    }

    private static String bool(Object value) {
        return switch (value) {
            case Boolean b -> b.toString();
            case Long l -> Boolean.toString(l != 0);
            default -> {
                String s = value.toString();
                yield switch (s) {
                    case "t" -> "true";
                    case "f" -> "false";
                    default -> s;
                };
            }
        };
    }

    /** {@code %.3f} as C and Rust print it: exact binary value, ties to even, signed zero kept. */
    public static String fixed3(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(d).setScale(3, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        return negative && !s.startsWith("-") ? "-" + s : s;
    }

    /** Shortest round-trip digits without exponent, as Rust's {@code Display} for floats. */
    public static String shortest(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
    }

    /** SQLite's text→integer conversion: optional sign and leading digits after spaces, else 0. */
    static long leadingInteger(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
            i++;
        }
        if (i == digits) {
            // No digits; a real prefix such as "1.5e3" still converts via its value.
            return (long) leadingReal(s);
        }
        if (i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            return (long) leadingReal(s);
        }
        try {
            return Long.parseLong(s.substring(start, i));
        } catch (NumberFormatException overflow) {
            return s.charAt(start) == '-' ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** SQLite's text→real conversion: the longest leading numeric prefix, else 0. */
    static double leadingReal(String s) {
        Matcher m = Pattern
                .compile("^\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)").matcher(s);
        return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
    }
}
