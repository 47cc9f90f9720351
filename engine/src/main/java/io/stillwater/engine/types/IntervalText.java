package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL interval text: output in the default {@code postgres} IntervalStyle and
 * input in the postgres/SQL forms ({@code '1 year 2 mons 3 days 04:05:06'},
 * {@code '2 hours 3 minutes'}, {@code '@ 1 day ago'}, {@code '-01:02:03'}) and ISO 8601
 * ({@code 'P1Y2M3DT4H5M6S'}).
 */
public final class IntervalText {
    private IntervalText() {}

    private static final long USEC_PER_SEC = 1_000_000L;
    private static final long USEC_PER_MIN = 60 * USEC_PER_SEC;
    private static final long USEC_PER_HOUR = 60 * USEC_PER_MIN;

    /** PostgreSQL's EncodeInterval, INTSTYLE_POSTGRES. */
    public static String format(Interval iv) {
        StringBuilder sb = new StringBuilder();
        boolean[] zero = {true};
        boolean[] before = {false};
        int years = iv.months() / 12, mons = iv.months() % 12;
        addPart(sb, years, "year", zero, before);
        addPart(sb, mons, "mon", zero, before);
        addPart(sb, iv.days(), "day", zero, before);
        long t = iv.micros();
        if (zero[0] || t != 0) {
            boolean minus = t < 0;
            // Component-wise absolute values: Math.abs(Long.MIN_VALUE) would stay negative.
            long hours = Math.abs(t / USEC_PER_HOUR), rest = Math.abs(t % USEC_PER_HOUR);
            if (!zero[0]) sb.append(' ');
            sb.append(minus ? "-" : before[0] ? "+" : "");
            TemporalText.pad(sb, hours, 2).append(':');
            TemporalText.pad(sb, rest / USEC_PER_MIN, 2).append(':');
            TemporalText.pad(sb, rest % USEC_PER_MIN / USEC_PER_SEC, 2);
            TemporalText.appendFraction(sb, rest % USEC_PER_SEC);
        }
        return sb.toString();
    }

    private static void addPart(StringBuilder sb, long value, String unit, boolean[] zero, boolean[] before) {
        if (value == 0) return;
        if (!zero[0]) sb.append(' ');
        if (before[0] && value > 0) sb.append('+');
        sb.append(value).append(' ').append(unit);
        if (value != 1) sb.append('s');
        before[0] = value < 0;
        zero[0] = false;
    }

    private static final Pattern TOKEN = Pattern.compile(
            "\\s*(?:([+-]?)(\\d+)-(\\d+)(?![\\d:])|([+-]?)(\\d+):(\\d+)(?::(\\d+(?:\\.\\d*)?))?|([+-]?\\d+\\.\\d*|[+-]?\\.?\\d+)\\s*([a-zA-Z]*)|([a-zA-Z]+))");
    private static final Pattern DAY_TIME = Pattern.compile("\\s*[+-]?\\d+:");
    private static final Pattern ISO = Pattern.compile(
            "([+-]?)P(?:(-?\\d+(?:\\.\\d+)?)Y)?(?:(-?\\d+(?:\\.\\d+)?)M)?(?:(-?\\d+(?:\\.\\d+)?)W)?(?:(-?\\d+(?:\\.\\d+)?)D)?"
                    + "(?:T(?:(-?\\d+(?:\\.\\d+)?)H)?(?:(-?\\d+(?:\\.\\d+)?)M)?(?:(-?\\d+(?:\\.\\d+)?)S)?)?");

    /** Accumulates fields; fractional units spill into smaller ones like PostgreSQL (30-day months). */
    private static final class Acc {
        long months, days;
        BigDecimal micros = BigDecimal.ZERO;

        void add(BigDecimal v, String unit, String text) {
            switch (unit) {
                case "microsecond", "microseconds", "us", "usec", "usecs", "useconds", "microsecon" -> addMicros(v);
                case "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds", "millisecon" -> addMicros(v.multiply(BigDecimal.valueOf(1000)));
                case "", "second", "seconds", "s", "sec", "secs" -> addMicros(v.multiply(BigDecimal.valueOf(USEC_PER_SEC)));
                case "minute", "minutes", "m", "min", "mins" -> addMicros(v.multiply(BigDecimal.valueOf(USEC_PER_MIN)));
                case "hour", "hours", "h", "hr", "hrs" -> addMicros(v.multiply(BigDecimal.valueOf(USEC_PER_HOUR)));
                case "day", "days", "d" -> addDays(v);
                case "week", "weeks", "w" -> addDays(v.multiply(BigDecimal.valueOf(7)));
                case "month", "months", "mon", "mons" -> addMonths(v);
                case "year", "years", "y", "yr", "yrs" -> addMonths(v.multiply(BigDecimal.valueOf(12)));
                case "decade", "decades", "dec", "decs" -> addMonths(v.multiply(BigDecimal.valueOf(120)));
                case "century", "centuries", "c", "cent" -> addMonths(v.multiply(BigDecimal.valueOf(1200)));
                case "millennium", "millennia", "mil", "mils" -> addMonths(v.multiply(BigDecimal.valueOf(12000)));
                default -> throw syntax(text);
            }
        }

        void addMicros(BigDecimal v) { micros = micros.add(v); }

        void addDays(BigDecimal v) {
            BigDecimal whole = v.setScale(0, RoundingMode.DOWN);
            days += whole.longValueExact();
            addMicros(v.subtract(whole).multiply(BigDecimal.valueOf(Interval.MICROS_PER_DAY)));
        }

        void addMonths(BigDecimal v) {
            BigDecimal whole = v.setScale(0, RoundingMode.DOWN);
            months += whole.longValueExact();
            addDays(v.subtract(whole).multiply(BigDecimal.valueOf(30)));
        }

        Interval build(String text, boolean negate) {
            long us = micros.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
            long m = months, d = days;
            if (negate) { m = -m; d = -d; us = -us; }
            if (m != (int) m || d != (int) d) {
                throw new SqlException(SqlState.INTERVAL_FIELD_OVERFLOW, "interval field value out of range: \"" + text + "\"");
            }
            return new Interval((int) m, (int) d, us);
        }
    }

    static SqlException syntax(String text) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"" + text + "\"");
    }

    public static Interval parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) throw syntax(text);
        try {
            if (s.startsWith("P") || s.startsWith("-P") || s.startsWith("+P")) return parseIso(s, text);
            Acc acc = new Acc();
            boolean ago = false;
            int pos = 0;
            if (s.startsWith("@")) pos = 1;
            Matcher m = TOKEN.matcher(s);
            boolean any = false;
            while (pos < s.length()) {
                if (Character.isWhitespace(s.charAt(pos))) { pos++; continue; }
                if (ago || !m.region(pos, s.length()).lookingAt()) throw syntax(text);
                any = true;
                if (m.group(2) != null) {
                    // SQL year-month literal '1-2': 1 year 2 months.
                    long ym = Long.parseLong(m.group(2)) * 12 + Long.parseLong(m.group(3));
                    acc.addMonths(BigDecimal.valueOf(m.group(1).equals("-") ? -ym : ym));
                } else if (m.group(5) != null) {
                    if (Integer.parseInt(m.group(6)) > 59
                            || (m.group(7) != null && new BigDecimal(m.group(7).endsWith(".") ? m.group(7) + "0" : m.group(7))
                                    .compareTo(BigDecimal.valueOf(60)) >= 0)) {
                        throw new SqlException(SqlState.INTERVAL_FIELD_OVERFLOW,
                                "interval field value out of range: \"" + text + "\"");
                    }
                    BigDecimal v = new BigDecimal(m.group(5)).multiply(BigDecimal.valueOf(USEC_PER_HOUR))
                            .add(new BigDecimal(m.group(6)).multiply(BigDecimal.valueOf(USEC_PER_MIN)));
                    if (m.group(7) != null) {
                        v = v.add(new BigDecimal(m.group(7).endsWith(".") ? m.group(7) + "0" : m.group(7))
                                .multiply(BigDecimal.valueOf(USEC_PER_SEC)));
                    }
                    acc.addMicros(m.group(4).equals("-") ? v.negate() : v);
                } else if (m.group(8) != null) {
                    String num = m.group(8).endsWith(".") ? m.group(8) + "0" : m.group(8);
                    String unit = m.group(9).toLowerCase(Locale.ROOT);
                    // SQL day-time literal: a bare number before a time of day counts days ('3 04:05:06').
                    if (unit.isEmpty() && DAY_TIME.matcher(s).region(m.end(), s.length()).lookingAt()) unit = "day";
                    acc.add(new BigDecimal(num.startsWith("+") ? num.substring(1) : num), unit, text);
                } else if (m.group(10).equalsIgnoreCase("ago")) {
                    ago = true;
                } else {
                    throw syntax(text);
                }
                pos = m.end();
            }
            if (!any) throw syntax(text);
            return acc.build(text, ago);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new SqlException(SqlState.INTERVAL_FIELD_OVERFLOW, "interval field value out of range: \"" + text + "\"");
        }
    }

    private static Interval parseIso(String s, String text) {
        Matcher m = ISO.matcher(s);
        if (!m.matches() || s.endsWith("P") || s.endsWith("T")) throw syntax(text);
        Acc acc = new Acc();
        String[] units = {null, null, "year", "month", "week", "day", "hour", "minute", "second"};
        for (int g = 2; g <= 8; g++) {
            if (m.group(g) != null) acc.add(new BigDecimal(m.group(g)), units[g], text);
        }
        return acc.build(text, m.group(1).equals("-"));
    }
}
