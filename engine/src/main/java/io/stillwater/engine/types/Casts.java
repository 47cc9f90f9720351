package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's casts between datums: explicit {@code CAST}/{@code ::}, and the
 * assignment casts applied when a value is stored into a column (numeric rounding to
 * the column's scale, varchar length checks, integer range checks).
 *
 * <p>The casts allowed are PostgreSQL's ({@code pg_cast} plus I/O conversion to and from
 * strings): among numeric kinds; boolean to and from integer; date, timestamp,
 * timestamptz and time among each other; time to and from interval; everything to and
 * from the string kinds. Other pairs are 42846 {@code cannot cast type X to Y}.
 * timestamptz conversions use the given session zone (UTC in the overloads without one).
 */
public final class Casts {
    private Casts() {}

    /** Casts {@code value} of type {@code from} to {@code to}; NULL stays NULL. */
    public static Object cast(Object value, SqlType from, SqlType to) {
        return cast(value, from, to, ZoneOffset.UTC);
    }

    /** Explicit cast; timestamptz values convert through {@code zone}. */
    public static Object cast(Object value, SqlType from, SqlType to, ZoneId zone) {
        return cast(value, from, to, zone, null);
    }

    /**
     * Explicit cast; timestamptz values convert through {@code zone} and the inputs 'now'
     * and 'today' mean {@code statementTime} (the wall clock when null).
     */
    public static Object cast(Object value, SqlType from, SqlType to, ZoneId zone, Instant statementTime) {
        if (value == null) return null;
        TypeKind f = from.kind(), t = to.kind();
        if (t.isString()) return applyLength(toText(value, from, zone), to, true);
        if (f.isString() || f == TypeKind.UNKNOWN) {
            String s = value instanceof String str ? str : value.toString();
            return applyTypmod(DatumText.parse(to, s, zone, statementTime), to);
        }
        return applyTypmod(convert(value, from, to, zone), to);
    }

    /**
     * The assignment cast applied when storing {@code value} into a column of type
     * {@code to} (INSERT, UPDATE, DEFAULT): like {@link #cast}, but a too-long string for
     * varchar(n)/char(n) is error 22001 instead of being truncated, and only the casts
     * PostgreSQL allows in assignment context are accepted (e.g. text to integer is 42804).
     * The 42804 message cannot name the column (this method does not know it) and reads
     * "column is of type integer but expression is of type text".
     */
    public static Object assign(Object value, SqlType from, SqlType to) {
        return assign(value, from, to, ZoneOffset.UTC);
    }

    /** Assignment cast; timestamptz values convert through {@code zone}. */
    public static Object assign(Object value, SqlType from, SqlType to, ZoneId zone) {
        TypeKind f = from.kind(), t = to.kind();
        boolean ok = f == TypeKind.ARRAY && t == TypeKind.ARRAY
                ? assignable(from.element().kind(), to.element().kind())
                : assignable(f, t);
        if (!ok) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH,
                    "column is of type " + to.displayName() + " but expression is of type " + from.displayName(),
                    null, "You will need to rewrite or cast the expression.");
        }
        if (value == null) return null;
        if (t.isString()) return applyLength(toText(value, from, zone), to, false);
        return cast(value, from, to, zone);
    }

    /** Whether PostgreSQL casts {@code f} to {@code t} implicitly or in assignment context. */
    public static boolean assignable(TypeKind f, TypeKind t) {
        if (f == t || f == TypeKind.UNKNOWN || t.isString()) return true;
        if (f == TypeKind.ARRAY || t == TypeKind.ARRAY) return false;
        if (f.isNumeric() && t.isNumeric()) return true;
        return switch (f) {
            case DATE -> t == TypeKind.TIMESTAMP || t == TypeKind.TIMESTAMPTZ;
            case TIMESTAMP -> t == TypeKind.DATE || t == TypeKind.TIME || t == TypeKind.TIMESTAMPTZ;
            case TIMESTAMPTZ -> t == TypeKind.DATE || t == TypeKind.TIME || t == TypeKind.TIMESTAMP;
            case TIME -> t == TypeKind.INTERVAL;
            case INTERVAL -> t == TypeKind.TIME;
            default -> false;
        };
    }

    /** Text form of a value for a cast to a string type; differs from output format for boolean and char. */
    private static String toText(Object value, SqlType from, ZoneId zone) {
        return switch (from.kind()) {
            case BOOLEAN -> ((Boolean) value) ? "true" : "false";
            case CHAR -> stripTrailingSpaces((String) value);
            case TEXT, VARCHAR, UNKNOWN -> value.toString();
            default -> DatumText.format(from, value, zone);
        };
    }

    static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return s.substring(0, end);
    }

    /**
     * varchar(n)/char(n) (a char without length is bpchar, unlimited): explicit casts truncate; assignment raises 22001 unless only
     * spaces are cut. char(n) pads with spaces to n.
     */
    private static String applyLength(String s, SqlType to, boolean explicit) {
        int n = to.precision();
        if (to.kind() == TypeKind.TEXT) return s;
        if (n == SqlType.UNSPECIFIED) return s;
        int len = s.codePointCount(0, s.length());
        if (len > n) {
            int cut = s.offsetByCodePoints(0, n);
            if (!explicit) {
                for (int i = cut; i < s.length(); i++) {
                    if (s.charAt(i) != ' ') {
                        throw new SqlException(SqlState.STRING_DATA_RIGHT_TRUNCATION,
                                "value too long for type " + to.displayName());
                    }
                }
            }
            return s.substring(0, cut);
        }
        if (to.kind() == TypeKind.CHAR && len < n) return s + " ".repeat(n - len);
        return s;
    }

    /** Applies numeric(p,s) rounding and precision; other kinds pass through. */
    private static Object applyTypmod(Object v, SqlType to) {
        if (to.kind() == TypeKind.NUMERIC && to.precision() != SqlType.UNSPECIFIED) {
            return applyNumericTypmod((BigDecimal) v, to.precision(), Math.max(to.scale(), 0));
        }
        return v;
    }

    /** PostgreSQL apply_typmod: round half away from zero to {@code scale}, then check precision. */
    public static BigDecimal applyNumericTypmod(BigDecimal v, int precision, int scale) {
        BigDecimal r = v.setScale(scale, RoundingMode.HALF_UP);
        int intDigits = r.signum() == 0 ? 0 : r.precision() - r.scale();
        if (intDigits > precision - scale) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow",
                    "A field with precision " + precision + ", scale " + scale
                            + " must round to an absolute value less than "
                            + (precision - scale == 0 ? "1" : "10^" + (precision - scale)) + ".", null);
        }
        return r;
    }

    /** An array cast casts each element ({@code int[]} to {@code text[]}, {@code numeric[]} to {@code int[]}). */
    private static PgArray castElements(PgArray a, SqlType from, SqlType to, ZoneId zone) {
        if (from.equals(to)) return a;
        List<Object> out = new ArrayList<>(a.size());
        for (Object e : a.elements()) {
            out.add(e instanceof PgArray nested ? castElements(nested, from, to, zone) : cast(e, from, to, zone));
        }
        return PgArray.of(out);
    }

    /** jsonb::numeric / ::integer / ::boolean ...: only a scalar of that kind converts, as in PostgreSQL. */
    private static Object fromJsonbScalar(Jsonb j, SqlType to) {
        Object root = j.root();
        TypeKind t = to.kind();
        if (t.isNumeric() && root instanceof BigDecimal d) return applyTypmod(Numbers.convert(d, t), to);
        if (t == TypeKind.BOOLEAN && root instanceof Boolean b) return b;
        String what = Jsonb.typeOf(root);
        throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot cast jsonb " + what + " to type " + to.displayName());
    }

    private static SqlException cannotCast(SqlType from, SqlType to) {
        return new SqlException(SqlState.CANNOT_COERCE,
                "cannot cast type " + from.displayName() + " to " + to.displayName());
    }

    private static Object convert(Object v, SqlType from, SqlType to, ZoneId zone) {
        TypeKind f = from.kind(), t = to.kind();
        if (f == TypeKind.ARRAY && t == TypeKind.ARRAY) return castElements((PgArray) v, from.element(), to.element(), zone);
        if (f == TypeKind.JSONB && t != TypeKind.JSONB) return fromJsonbScalar((Jsonb) v, to);
        if (f == t) return v;
        if (f.isNumeric() && t.isNumeric()) return Numbers.convert(v, t);
        switch (t) {
            case BOOLEAN:
                if (f == TypeKind.INTEGER) return ((Number) v).intValue() != 0;
                break;
            case INTEGER:
                if (f == TypeKind.BOOLEAN) return ((Boolean) v) ? 1 : 0;
                break;
            case DATE:
                if (f == TypeKind.TIMESTAMP) return ((LocalDateTime) v).toLocalDate();
                if (f == TypeKind.TIMESTAMPTZ) return LocalDate.ofInstant((Instant) v, zone);
                break;
            case TIME:
                if (f == TypeKind.TIMESTAMP) return ((LocalDateTime) v).toLocalTime();
                if (f == TypeKind.TIMESTAMPTZ) return LocalTime.ofInstant((Instant) v, zone);
                if (f == TypeKind.INTERVAL) {
                    long us = Math.floorMod(((Interval) v).micros(), Interval.MICROS_PER_DAY);
                    return LocalTime.ofNanoOfDay(us * 1000);
                }
                break;
            case TIMESTAMP:
                if (f == TypeKind.DATE) return ((LocalDate) v).atStartOfDay();
                if (f == TypeKind.TIMESTAMPTZ) return LocalDateTime.ofInstant((Instant) v, zone);
                break;
            case TIMESTAMPTZ:
                if (f == TypeKind.DATE) return ((LocalDate) v).atStartOfDay(zone).toInstant();
                if (f == TypeKind.TIMESTAMP) return ((LocalDateTime) v).atZone(zone).toInstant();
                break;
            case INTERVAL:
                if (f == TypeKind.TIME) return new Interval(0, 0, ((LocalTime) v).toNanoOfDay() / 1000);
                break;
            default:
                break;
        }
        throw cannotCast(from, to);
    }
}
