package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.time.temporal.JulianFields;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL date/time arithmetic and functions. Timestamps are microsecond-precise;
 * timestamptz field access, truncation and month/day arithmetic happen in the session
 * time zone, as PostgreSQL does.
 */
final class DateTimeFuncs {
    private DateTimeFuncs() {}

    static final long USEC_PER_SEC = 1_000_000L;
    static final long USEC_PER_DAY = Interval.MICROS_PER_DAY;
    /** PostgreSQL's timestamp range ends in 294276 AD; dates and timestamps beyond are 22008. */
    private static final int MAX_YEAR = 294276;
    private static final int MIN_YEAR = -4713;

    static SqlException outOfRange(String what) {
        return new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, what + " out of range");
    }

    static LocalDate checkDate(LocalDate d) {
        if (d.getYear() > 5874897 || d.getYear() < MIN_YEAR) throw outOfRange("date");
        return d;
    }

    static LocalDateTime checkTs(LocalDateTime t) {
        if (t.getYear() > MAX_YEAR || t.getYear() < MIN_YEAR) throw outOfRange("timestamp");
        return t;
    }

    static Instant checkTsTz(Instant t) {
        LocalDateTime u = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
        if (u.getYear() > MAX_YEAR || u.getYear() < MIN_YEAR) throw outOfRange("timestamp");
        return t;
    }

    // ------------------------------------------------------------ arithmetic

    static LocalDateTime plus(LocalDateTime t, Interval iv) {
        try {
            LocalDateTime r = t.plusMonths(iv.months()).plusDays(iv.days()).plus(iv.micros(), ChronoUnit.MICROS);
            return checkTs(r);
        } catch (DateTimeException | ArithmeticException e) {
            throw outOfRange("timestamp");
        }
    }

    static Instant plus(Instant t, Interval iv, ZoneId zone) {
        try {
            Instant r = t;
            if (iv.months() != 0 || iv.days() != 0) {
                r = r.atZone(zone).plusMonths(iv.months()).plusDays(iv.days()).toInstant();
            }
            return checkTsTz(r.plus(iv.micros(), ChronoUnit.MICROS));
        } catch (DateTimeException | ArithmeticException e) {
            throw outOfRange("timestamp");
        }
    }

    static LocalTime plus(LocalTime t, Interval iv) {
        long us = Math.floorMod(t.toNanoOfDay() / 1000 + iv.micros() % USEC_PER_DAY, USEC_PER_DAY);
        return LocalTime.ofNanoOfDay(us * 1000);
    }

    static LocalDate plusDays(LocalDate d, long days) {
        try {
            return checkDate(d.plusDays(days));
        } catch (DateTimeException | ArithmeticException e) {
            throw outOfRange("date");
        }
    }

    static Interval negate(Interval iv) {
        if (iv.months() == Integer.MIN_VALUE || iv.days() == Integer.MIN_VALUE || iv.micros() == Long.MIN_VALUE) {
            throw outOfRange("interval");
        }
        return new Interval(-iv.months(), -iv.days(), -iv.micros());
    }

    static Interval add(Interval a, Interval b) {
        try {
            return new Interval(Math.addExact(a.months(), b.months()), Math.addExact(a.days(), b.days()),
                    Math.addExact(a.micros(), b.micros()));
        } catch (ArithmeticException e) {
            throw outOfRange("interval");
        }
    }

    /** timestamp - timestamp: the microsecond difference split into days and time (interval_justify_hours). */
    static Interval difference(long micros) {
        long days = micros / USEC_PER_DAY;
        long rest = micros % USEC_PER_DAY;
        if (days != (int) days) throw outOfRange("interval");
        return new Interval(0, (int) days, rest);
    }

    static long micros(LocalDateTime a, LocalDateTime b) {
        return ChronoUnit.MICROS.between(b, a);
    }

    static long micros(Instant a, Instant b) {
        return ChronoUnit.MICROS.between(b, a);
    }

    private static double tsround(double x) {
        return Math.rint(x * 1e6) / 1e6;
    }

    /** PostgreSQL 15 interval_mul. */
    static Interval multiply(Interval span, double factor) {
        if (Double.isNaN(factor) || Double.isInfinite(factor)) throw outOfRange("interval");
        double monthsD = span.months() * factor;
        double daysD = span.days() * factor;
        if (Math.abs(monthsD) > Integer.MAX_VALUE || Math.abs(daysD) > Integer.MAX_VALUE) throw outOfRange("interval");
        int months = (int) monthsD;
        int days = (int) daysD;
        double monthRemainderDays = tsround((span.months() * factor - months) * 30);
        double secRemainder = tsround((span.days() * factor - days + monthRemainderDays - (int) monthRemainderDays) * 86400);
        if (Math.abs(secRemainder) >= 86400) {
            days += (int) (secRemainder / 86400);
            secRemainder -= (int) (secRemainder / 86400) * 86400.0;
        }
        days += (int) monthRemainderDays;
        double time = Math.rint(span.micros() * factor + secRemainder * USEC_PER_SEC);
        if (Math.abs(time) >= 0x1p63) throw outOfRange("interval");
        return new Interval(months, days, (long) time);
    }

    /** PostgreSQL 15 interval_div. */
    static Interval divide(Interval span, double factor) {
        if (factor == 0) throw NumericMath.divisionByZero();
        if (Double.isNaN(factor)) throw outOfRange("interval");
        int months = (int) (span.months() / factor);
        int days = (int) (span.days() / factor);
        double monthRemainderDays = (span.months() / factor - months) * 30;
        monthRemainderDays = tsround(monthRemainderDays);
        double secRemainder = tsround((span.days() / factor - days + monthRemainderDays - (int) monthRemainderDays) * 86400);
        if (Math.abs(secRemainder) >= 86400) {
            days += (int) (secRemainder / 86400);
            secRemainder -= (int) (secRemainder / 86400) * 86400.0;
        }
        days += (int) monthRemainderDays;
        return new Interval(months, days, (long) Math.rint(span.micros() / factor + secRemainder * USEC_PER_SEC));
    }

    static Interval justifyDays(Interval iv) {
        int months = iv.months() + iv.days() / 30;
        int days = iv.days() % 30;
        if (months > 0 && days < 0) { days += 30; months--; }
        else if (months < 0 && days > 0) { days -= 30; months++; }
        return new Interval(months, days, iv.micros());
    }

    static Interval justifyHours(Interval iv) {
        long days = iv.days() + iv.micros() / USEC_PER_DAY;
        long time = iv.micros() % USEC_PER_DAY;
        if (days > 0 && time < 0) { time += USEC_PER_DAY; days--; }
        else if (days < 0 && time > 0) { time -= USEC_PER_DAY; days++; }
        if (days != (int) days) throw outOfRange("interval");
        return new Interval(iv.months(), (int) days, time);
    }

    static Interval justifyInterval(Interval iv) {
        long days = iv.days() + iv.micros() / USEC_PER_DAY;
        long time = iv.micros() % USEC_PER_DAY;
        long months = iv.months() + days / 30;
        days = days % 30;
        if (months > 0 && (days < 0 || (days == 0 && time < 0))) { days += 30; months--; }
        else if (months < 0 && (days > 0 || (days == 0 && time > 0))) { days -= 30; months++; }
        if (days > 0 && time < 0) { time += USEC_PER_DAY; days--; }
        else if (days < 0 && time > 0) { time -= USEC_PER_DAY; days++; }
        if (months != (int) months) throw outOfRange("interval");
        return new Interval((int) months, (int) days, time);
    }

    /** PostgreSQL's age(): a symbolic difference in years, months, days and time, borrowing like PG. */
    static Interval age(LocalDateTime t1, LocalDateTime t2) {
        boolean flip = t1.isBefore(t2);
        long fsec = t1.getNano() / 1000 - t2.getNano() / 1000;
        long sec = t1.getSecond() - t2.getSecond();
        long min = t1.getMinute() - t2.getMinute();
        long hour = t1.getHour() - t2.getHour();
        long mday = t1.getDayOfMonth() - t2.getDayOfMonth();
        long mon = t1.getMonthValue() - t2.getMonthValue();
        long year = t1.getYear() - t2.getYear();
        if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
        while (fsec < 0) { fsec += USEC_PER_SEC; sec--; }
        while (sec < 0) { sec += 60; min--; }
        while (min < 0) { min += 60; hour--; }
        while (hour < 0) { hour += 24; mday--; }
        while (mday < 0) {
            LocalDateTime ref = flip ? t1 : t2;
            mday += ref.toLocalDate().lengthOfMonth();
            mon--;
        }
        while (mon < 0) { mon += 12; year--; }
        if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
        return new Interval((int) (year * 12 + mon), (int) mday, ((hour * 60 + min) * 60 + sec) * USEC_PER_SEC + fsec);
    }

    static LocalDate makeDate(long y, long m, long d) {
        try {
            if (y == 0) throw new DateTimeException("year zero");
            return checkDate(LocalDate.of((int) (y < 0 ? y + 1 : y), (int) m, (int) d));
        } catch (DateTimeException e) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW,
                    "date field value out of range: " + y + "-" + pad2(m) + "-" + pad2(d));
        }
    }

    private static String pad2(long v) { return v >= 0 && v < 10 ? "0" + v : String.valueOf(v); }

    static LocalDateTime makeTimestamp(long y, long mo, long d, long h, long mi, double sec) {
        LocalDate date = makeDate(y, mo, d);
        if (h < 0 || h > 24 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || Double.isNaN(sec)
                || (h == 24 && (mi != 0 || sec != 0))) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW,
                    "time field value out of range: " + h + ":" + pad2(mi) + ":" + pad2((long) sec));
        }
        long us = (long) Math.rint(sec * USEC_PER_SEC);
        return checkTs(date.atStartOfDay().plus(((h * 60 + mi) * 60) * USEC_PER_SEC + us, ChronoUnit.MICROS));
    }

    static Instant toTimestamp(double seconds) {
        if (Double.isNaN(seconds)) throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp cannot be NaN");
        if (Double.isInfinite(seconds) || Math.abs(seconds) > 1e13) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"" + seconds + "\"");
        }
        long us = (long) Math.rint(seconds * USEC_PER_SEC);
        return checkTsTz(Instant.EPOCH.plus(us, ChronoUnit.MICROS));
    }

    // ------------------------------------------------------------ fields

    /** Canonical unit names, PostgreSQL's abbreviations and plurals mapped to one spelling. */
    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("millennium", "millennium"), Map.entry("millennia", "millennium"), Map.entry("mil", "millennium"),
            Map.entry("mils", "millennium"),
            Map.entry("century", "century"), Map.entry("centuries", "century"), Map.entry("c", "century"),
            Map.entry("cent", "century"),
            Map.entry("decade", "decade"), Map.entry("decades", "decade"), Map.entry("dec", "decade"),
            Map.entry("decs", "decade"),
            Map.entry("year", "year"), Map.entry("years", "year"), Map.entry("y", "year"), Map.entry("yr", "year"),
            Map.entry("yrs", "year"),
            Map.entry("quarter", "quarter"), Map.entry("qtr", "quarter"),
            Map.entry("month", "month"), Map.entry("months", "month"), Map.entry("mon", "month"),
            Map.entry("mons", "month"),
            Map.entry("week", "week"), Map.entry("weeks", "week"), Map.entry("w", "week"),
            Map.entry("day", "day"), Map.entry("days", "day"), Map.entry("d", "day"),
            Map.entry("hour", "hour"), Map.entry("hours", "hour"), Map.entry("h", "hour"), Map.entry("hr", "hour"),
            Map.entry("hrs", "hour"),
            Map.entry("minute", "minute"), Map.entry("minutes", "minute"), Map.entry("m", "minute"),
            Map.entry("min", "minute"), Map.entry("mins", "minute"),
            Map.entry("second", "second"), Map.entry("seconds", "second"), Map.entry("s", "second"),
            Map.entry("sec", "second"), Map.entry("secs", "second"),
            Map.entry("millisecond", "milliseconds"), Map.entry("milliseconds", "milliseconds"),
            Map.entry("ms", "milliseconds"), Map.entry("msec", "milliseconds"), Map.entry("msecs", "milliseconds"),
            Map.entry("microsecond", "microseconds"), Map.entry("microseconds", "microseconds"),
            Map.entry("us", "microseconds"), Map.entry("usec", "microseconds"), Map.entry("usecs", "microseconds"),
            Map.entry("epoch", "epoch"), Map.entry("dow", "dow"), Map.entry("doy", "doy"),
            Map.entry("isodow", "isodow"), Map.entry("isoyear", "isoyear"), Map.entry("julian", "julian"),
            Map.entry("j", "julian"),
            Map.entry("timezone", "timezone"), Map.entry("timezone_hour", "timezone_hour"),
            Map.entry("timezone_minute", "timezone_minute"), Map.entry("timezone_m", "timezone_minute"),
            Map.entry("timezone_h", "timezone_hour"));

    static String unit(String field, TypeKind source) {
        String u = UNITS.get(field.strip().toLowerCase(Locale.ROOT));
        if (u == null) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "unit \"" + field + "\" not recognized for type " + source.pgName());
        }
        return u;
    }

    static SqlException unsupportedUnit(String field, TypeKind source) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                "unit \"" + field + "\" not supported for type " + source.pgName());
    }

    private static BigDecimal dec(long v) { return BigDecimal.valueOf(v); }

    private static BigDecimal micros(long us, int scaleMinus) {
        return BigDecimal.valueOf(us, scaleMinus);
    }

    /**
     * extract(field from source) as numeric, with PostgreSQL 14+'s result scales (second 6,
     * milliseconds 3, epoch 6 for timestamps/time/interval, integers elsewhere).
     * {@code offsetSeconds} is the zone offset for timestamptz fields (0 otherwise).
     */
    static BigDecimal extract(String field, Object source, TypeKind kind, ZoneId zone) {
        String u = unit(field, kind);
        switch (kind) {
            case DATE -> {
                LocalDate d = (LocalDate) source;
                return switch (u) {
                    case "epoch" -> dec(d.toEpochDay() * 86400);
                    case "julian" -> dec(d.getLong(JulianFields.JULIAN_DAY));
                    case "hour", "minute", "second", "milliseconds", "microseconds", "timezone", "timezone_hour",
                            "timezone_minute" -> throw unsupportedUnit(field, kind);
                    default -> dateField(u, d);
                };
            }
            case TIME -> {
                long us = ((LocalTime) source).toNanoOfDay() / 1000;
                return switch (u) {
                    case "hour" -> dec(us / 3_600_000_000L);
                    case "minute" -> dec(us / 60_000_000L % 60);
                    case "second" -> micros(us % 60_000_000L, 6);
                    case "milliseconds" -> micros(us % 60_000_000L, 3);
                    case "microseconds" -> dec(us % 60_000_000L);
                    case "epoch" -> micros(us, 6);
                    default -> throw unsupportedUnit(field, kind);
                };
            }
            case TIMESTAMP -> {
                LocalDateTime t = (LocalDateTime) source;
                if (u.equals("epoch")) return micros(ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), t), 6);
                if (u.startsWith("timezone")) throw unsupportedUnit(field, kind);
                return timestampField(u, t);
            }
            case TIMESTAMPTZ -> {
                Instant i = (Instant) source;
                ZonedDateTime z = i.atZone(zone);
                int off = z.getOffset().getTotalSeconds();
                return switch (u) {
                    case "epoch" -> micros(ChronoUnit.MICROS.between(Instant.EPOCH, i), 6);
                    case "timezone" -> dec(off);
                    case "timezone_hour" -> dec(off / 3600);
                    case "timezone_minute" -> dec(off / 60 % 60);
                    default -> timestampField(u, z.toLocalDateTime());
                };
            }
            case INTERVAL -> {
                Interval iv = (Interval) source;
                long us = iv.micros();
                return switch (u) {
                    case "epoch" -> {
                        // 365.25 days per year, 30 per month, as PostgreSQL.
                        long years = iv.months() / 12, mons = iv.months() % 12;
                        BigDecimal secs = BigDecimal.valueOf(years).multiply(new BigDecimal("31557600"))
                                .add(BigDecimal.valueOf((mons * 30L + iv.days()) * 86400L));
                        yield secs.add(micros(us, 6)).setScale(6);
                    }
                    case "millennium" -> dec(iv.months() / 12 / 1000);
                    case "century" -> dec(iv.months() / 12 / 100);
                    case "decade" -> dec(iv.months() / 12 / 10);
                    case "year" -> dec(iv.months() / 12);
                    case "quarter" -> dec(iv.months() % 12 / 3 + 1);
                    case "month" -> dec(iv.months() % 12);
                    case "day" -> dec(iv.days());
                    case "hour" -> dec(us / 3_600_000_000L);
                    case "minute" -> dec(us / 60_000_000L % 60);
                    case "second" -> micros(us % 60_000_000L, 6);
                    case "milliseconds" -> micros(us % 60_000_000L, 3);
                    case "microseconds" -> dec(us % 60_000_000L);
                    default -> throw unsupportedUnit(field, kind);
                };
            }
            default -> throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "function extract(unknown, " + kind.pgName() + ") does not exist");
        }
    }

    private static BigDecimal dateField(String u, LocalDate d) {
        int y = d.getYear();
        return switch (u) {
            case "millennium" -> dec(y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000));
            case "century" -> dec(y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100));
            case "decade" -> dec(Math.floorDiv(y, 10));
            case "year" -> dec(y > 0 ? y : y - 1);
            case "isoyear" -> dec(d.get(IsoFields.WEEK_BASED_YEAR));
            case "quarter" -> dec((d.getMonthValue() - 1) / 3 + 1);
            case "month" -> dec(d.getMonthValue());
            case "week" -> dec(d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case "day" -> dec(d.getDayOfMonth());
            case "dow" -> dec(d.getDayOfWeek().getValue() % 7);
            case "isodow" -> dec(d.getDayOfWeek().getValue());
            case "doy" -> dec(d.getDayOfYear());
            case "julian" -> dec(d.getLong(JulianFields.JULIAN_DAY));
            default -> throw new IllegalStateException(u);
        };
    }

    private static BigDecimal timestampField(String u, LocalDateTime t) {
        long secUs = t.getSecond() * USEC_PER_SEC + t.getNano() / 1000;
        return switch (u) {
            case "hour" -> dec(t.getHour());
            case "minute" -> dec(t.getMinute());
            case "second" -> micros(secUs, 6);
            case "milliseconds" -> micros(secUs, 3);
            case "microseconds" -> dec(secUs);
            // PostgreSQL computes the day fraction as a numeric division, with its scale rules.
            case "julian" -> dec(t.toLocalDate().getLong(JulianFields.JULIAN_DAY)).add(NumericMath.divide(
                    BigDecimal.valueOf(t.toLocalTime().toNanoOfDay() / 1000), BigDecimal.valueOf(USEC_PER_DAY)));
            default -> dateField(u, t.toLocalDate());
        };
    }

    // ------------------------------------------------------------ date_trunc

    static LocalDateTime trunc(String field, LocalDateTime t, TypeKind kind) {
        String u = unit(field, kind);
        LocalDate d = t.toLocalDate();
        int y = d.getYear();
        return switch (u) {
            case "millennium" -> LocalDate.of(y > 0 ? ((y + 999) / 1000) * 1000 - 999 : y, 1, 1).atStartOfDay();
            case "century" -> LocalDate.of(y > 0 ? ((y + 99) / 100) * 100 - 99 : y, 1, 1).atStartOfDay();
            case "decade" -> LocalDate.of(y > 0 ? (y / 10) * 10 : y, 1, 1).atStartOfDay();
            case "year" -> LocalDate.of(y, 1, 1).atStartOfDay();
            case "quarter" -> LocalDate.of(y, (d.getMonthValue() - 1) / 3 * 3 + 1, 1).atStartOfDay();
            case "month" -> LocalDate.of(y, d.getMonthValue(), 1).atStartOfDay();
            case "week" -> d.minusDays(d.getDayOfWeek().getValue() - 1).atStartOfDay();
            case "day" -> d.atStartOfDay();
            case "hour" -> t.truncatedTo(ChronoUnit.HOURS);
            case "minute" -> t.truncatedTo(ChronoUnit.MINUTES);
            case "second" -> t.truncatedTo(ChronoUnit.SECONDS);
            case "milliseconds" -> t.truncatedTo(ChronoUnit.MILLIS);
            case "microseconds" -> t.truncatedTo(ChronoUnit.MICROS);
            default -> throw unsupportedUnit(field, kind);
        };
    }

    static Instant trunc(String field, Instant t, ZoneId zone) {
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        LocalDateTime tr = trunc(field, local, TypeKind.TIMESTAMPTZ);
        return tr.atZone(zone).toInstant();
    }

    static Interval trunc(String field, Interval iv) {
        String u = unit(field, TypeKind.INTERVAL);
        long us = iv.micros();
        return switch (u) {
            case "millennium" -> new Interval(iv.months() / 12000 * 12000, 0, 0);
            case "century" -> new Interval(iv.months() / 1200 * 1200, 0, 0);
            case "decade" -> new Interval(iv.months() / 120 * 120, 0, 0);
            case "year" -> new Interval(iv.months() / 12 * 12, 0, 0);
            case "quarter" -> new Interval(iv.months() / 3 * 3, 0, 0);
            case "month" -> new Interval(iv.months(), 0, 0);
            case "day" -> new Interval(iv.months(), iv.days(), 0);
            case "hour" -> new Interval(iv.months(), iv.days(), us / 3_600_000_000L * 3_600_000_000L);
            case "minute" -> new Interval(iv.months(), iv.days(), us / 60_000_000L * 60_000_000L);
            case "second" -> new Interval(iv.months(), iv.days(), us / USEC_PER_SEC * USEC_PER_SEC);
            case "milliseconds" -> new Interval(iv.months(), iv.days(), us / 1000 * 1000);
            case "microseconds" -> iv;
            default -> throw unsupportedUnit(field, TypeKind.INTERVAL);
        };
    }
}
