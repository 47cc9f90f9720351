package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * PostgreSQL's text representation of datums: the output format (what {@code psql}
 * prints and the wire's text format sends) and the input format (string literals,
 * text-format parameters, {@code '...'::type}).
 *
 * <p>Timestamps with time zone are printed and read in a session time zone, UTC unless
 * given. Styles are PostgreSQL's defaults: DateStyle ISO, MDY; IntervalStyle postgres;
 * bytea_output hex; extra_float_digits 1 (shortest round-trip floats).
 *
 * <p>Dates are read in ISO order ({@code 2024-01-31}, {@code 20240131}), US order
 * ({@code 01/31/2024}) or with month names ({@code Jan 31 2024}, {@code 31-Jan-2024}).
 * Not supported: numeric NaN/Infinity (a {@code BigDecimal} cannot carry them; input is
 * 0A000), infinite dates/timestamps and {@code time '24:00:00'}. The special inputs
 * {@code now}, {@code today}, {@code tomorrow}, {@code yesterday}, {@code epoch} and
 * {@code allballs} are read relative to a given statement time (else the wall clock).
 */
public final class DatumText {
    private DatumText() {}

    private static final Pattern NUMERIC = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** PostgreSQL output format of {@code value} (not null) of type {@code type}, time zones in UTC. */
    public static String format(SqlType type, Object value) {
        return format(type, value, ZoneOffset.UTC);
    }

    /** PostgreSQL output format, rendering timestamptz in {@code zone}. */
    public static String format(SqlType type, Object value, ZoneId zone) {
        return switch (type.kind()) {
            case BOOLEAN -> ((Boolean) value) ? "t" : "f";
            case SMALLINT, INTEGER, BIGINT -> value.toString();
            case REAL -> FloatText.formatFloat(((Number) value).floatValue());
            case DOUBLE -> FloatText.formatDouble(((Number) value).doubleValue());
            case NUMERIC -> formatNumeric(value);
            case TEXT, VARCHAR, CHAR, UNKNOWN -> value.toString();
            case DATE -> TemporalText.formatDate((LocalDate) value);
            case TIME -> TemporalText.formatTime((LocalTime) value);
            case TIMESTAMP -> TemporalText.formatTimestamp((LocalDateTime) value);
            case TIMESTAMPTZ -> TemporalText.formatTimestampTz((Instant) value, zone);
            case INTERVAL -> IntervalText.format((Interval) value);
            case BYTEA -> value.toString();
            case ARRAY -> ArrayText.format(type.element(), (PgArray) value, zone);
            case JSONB -> JsonbText.format((Jsonb) value);
        };
    }

    private static String formatNumeric(Object value) {
        BigDecimal d = value instanceof BigDecimal b ? b : new BigDecimal(value.toString());
        if (d.scale() < 0) d = d.setScale(0);
        return d.toPlainString();
    }

    /**
     * Parses PostgreSQL input format into a datum of {@code type}; bad input is error
     * 22P02 (or 22007/22008 for dates, 22003 for out-of-range numbers). Type modifiers
     * (varchar length, numeric scale) are not applied here; {@link Casts} applies them.
     */
    public static Object parse(SqlType type, String text) {
        return parse(type, text, ZoneOffset.UTC);
    }

    /**
     * Parses input format; a timestamptz without an offset is read in {@code zone}. The
     * special inputs now/today/tomorrow/yesterday read the wall clock; use
     * {@link #parse(SqlType, String, ZoneId, Instant)} to pin them to a statement time.
     */
    public static Object parse(SqlType type, String text, ZoneId zone) {
        return parse(type, text, zone, null);
    }

    /** Parses input format; {@code now} (null for the wall clock) is what 'now' and 'today' mean. */
    public static Object parse(SqlType type, String text, ZoneId zone, Instant now) {
        if (type.kind().isTemporal() && type.kind() != TypeKind.INTERVAL) {
            Object special = TemporalText.special(type.kind(), text, zone, now);
            if (special != null) return special;
        }
        return switch (type.kind()) {
            case BOOLEAN -> parseBoolean(text);
            case SMALLINT -> (short) parseInteger(text, "smallint", Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER -> (int) parseInteger(text, "integer", Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> parseInteger(text, "bigint", Long.MIN_VALUE, Long.MAX_VALUE);
            case REAL -> (float) FloatText.parseDouble(text, true);
            case DOUBLE -> FloatText.parseDouble(text, false);
            case NUMERIC -> parseNumeric(text);
            case TEXT, VARCHAR, CHAR, UNKNOWN -> text;
            case DATE -> TemporalText.parseDate(text);
            case TIME -> TemporalText.parseTime(text);
            case TIMESTAMP -> TemporalText.parseTimestamp(text);
            case TIMESTAMPTZ -> TemporalText.parseTimestampTz(text, zone);
            case INTERVAL -> IntervalText.parse(text);
            case BYTEA -> parseBytea(text);
            case ARRAY -> ArrayText.parse(type.element(), text, zone, now);
            case JSONB -> JsonbText.parse(text);
        };
    }

    private static SqlException syntax(String typeName, String text) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + typeName + ": \"" + text + "\"");
    }

    static boolean parseBoolean(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (!s.isEmpty()) {
            if ("true".startsWith(s) || "yes".startsWith(s) || s.equals("on") || s.equals("1")) return true;
            if ("false".startsWith(s) || "no".startsWith(s) || (s.length() >= 2 && "off".startsWith(s)) || s.equals("0")) {
                return false;
            }
        }
        throw syntax("boolean", text);
    }

    static long parseInteger(String text, String typeName, long min, long max) {
        String s = text.strip();
        int i = 0, n = s.length();
        boolean neg = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) neg = s.charAt(i++) == '-';
        if (i == n) throw syntax(typeName, text);
        long v = 0; // accumulated negatively so Long.MIN_VALUE fits
        boolean overflow = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw syntax(typeName, text);
            if (!overflow) {
                if (v < (Long.MIN_VALUE + (c - '0')) / 10) overflow = true;
                else v = v * 10 - (c - '0');
            }
        }
        if (!neg) {
            if (v == Long.MIN_VALUE) overflow = true;
            else v = -v;
        }
        if (overflow || v < min || v > max) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value \"" + text + "\" is out of range for type " + typeName);
        }
        return v;
    }

    static BigDecimal parseNumeric(String text) {
        String s = text.strip();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("nan") || lower.endsWith("infinity") || lower.endsWith("inf")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "numeric value \"" + text + "\" is not supported: numeric NaN and Infinity cannot be stored");
        }
        if (!NUMERIC.matcher(s).matches()) throw syntax("numeric", text);
        try {
            BigDecimal d = new BigDecimal(s.startsWith("+") ? s.substring(1) : s);
            return d.scale() < 0 ? d.setScale(0) : d;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        }
    }

    static ByteString parseBytea(String text) {
        if (text.startsWith("\\x") || text.startsWith("\\X")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() / 2);
            int i = 2, n = text.length();
            while (i < n) {
                char c = text.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { i++; continue; }
                int hi = hexDigit(c);
                if (i + 1 >= n) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits");
                }
                int lo = hexDigit(text.charAt(i + 1));
                out.write((hi << 4) | lo);
                i += 2;
            }
            return ByteString.wrap(out.toByteArray());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        int i = 0, n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c != '\\') {
                int cp = text.codePointAt(i);
                byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
                i += Character.charCount(cp);
            } else if (i + 1 < n && text.charAt(i + 1) == '\\') {
                out.write('\\');
                i += 2;
            } else if (i + 3 < n + 0 && isOctal(text.charAt(i + 1)) && text.charAt(i + 1) <= '3'
                    && isOctal(text.charAt(i + 2)) && isOctal(text.charAt(i + 3))) {
                out.write(((text.charAt(i + 1) - '0') << 6) | ((text.charAt(i + 2) - '0') << 3) | (text.charAt(i + 3) - '0'));
                i += 4;
            } else {
                throw syntax("bytea", text);
            }
        }
        return ByteString.wrap(out.toByteArray());
    }

    private static boolean isOctal(char c) { return c >= '0' && c <= '7'; }

    private static int hexDigit(char c) {
        int d = Character.digit(c, 16);
        if (d < 0 || c > 'f') {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal digit: \"" + c + "\"");
        }
        return d;
    }
}
