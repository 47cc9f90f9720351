package io.stillwater.engine.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * PostgreSQL's ISO text formats for date, time, timestamp and timestamptz (DateStyle
 * ISO, MDY). Values carry microsecond precision; more input digits are rounded.
 */
final class TemporalText {
    private TemporalText() {}

    // ---------------------------------------------------------------- output

    static String formatDate(LocalDate d) {
        StringBuilder sb = new StringBuilder(16);
        appendDate(sb, d);
        if (d.getYear() <= 0) sb.append(" BC");
        return sb.toString();
    }

    private static void appendDate(StringBuilder sb, LocalDate d) {
        int y = d.getYear() <= 0 ? 1 - d.getYear() : d.getYear();
        pad(sb, y, 4).append('-');
        pad(sb, d.getMonthValue(), 2).append('-');
        pad(sb, d.getDayOfMonth(), 2);
    }

    static String formatTime(LocalTime t) {
        StringBuilder sb = new StringBuilder(15);
        appendTime(sb, t);
        return sb.toString();
    }

    static void appendTime(StringBuilder sb, LocalTime t) {
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2);
        appendFraction(sb, t.getNano() / 1000);
    }

    /** Appends {@code .ffffff} with trailing zeros removed, nothing when zero. */
    static void appendFraction(StringBuilder sb, long micros) {
        if (micros == 0) return;
        String f = String.valueOf(1_000_000 + micros).substring(1);
        int end = f.length();
        while (f.charAt(end - 1) == '0') end--;
        sb.append('.').append(f, 0, end);
    }

    static String formatTimestamp(LocalDateTime ts) {
        StringBuilder sb = new StringBuilder(26);
        appendDate(sb, ts.toLocalDate());
        sb.append(' ');
        appendTime(sb, ts.toLocalTime());
        if (ts.getYear() <= 0) sb.append(" BC");
        return sb.toString();
    }

    static String formatTimestampTz(Instant instant, ZoneId zone) {
        ZonedDateTime z = instant.atZone(zone);
        StringBuilder sb = new StringBuilder(32);
        appendDate(sb, z.toLocalDate());
        sb.append(' ');
        appendTime(sb, z.toLocalTime());
        int off = z.getOffset().getTotalSeconds();
        sb.append(off < 0 ? '-' : '+');
        off = Math.abs(off);
        pad(sb, off / 3600, 2);
        if (off % 3600 != 0) {
            sb.append(':');
            pad(sb, off % 3600 / 60, 2);
            if (off % 60 != 0) pad(sb.append(':'), off % 60, 2);
        }
        if (z.getYear() <= 0) sb.append(" BC");
        return sb.toString();
    }

    static StringBuilder pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) sb.append('0');
        return sb.append(s);
    }

    // ---------------------------------------------------------------- input

    private static final String DATE_RE = "(?:(\\d{1,9})-(\\d{1,2})-(\\d{1,2})|(\\d{4})(\\d{2})(\\d{2})|(\\d{1,2})/(\\d{1,2})/(\\d{1,9}))";
    private static final String TIME_RE = "(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?";
    private static final String TZ_RE = "(?:\\s*([zZ]|[+-]\\d{1,2}(?::?\\d{2}(?::?\\d{2})?)?)|\\s+(?!(?i:bc|ad)\\b)([A-Za-z][A-Za-z0-9_/+-]*))";
    private static final Pattern DATE = Pattern.compile(
            "\\s*" + DATE_RE + "(?:(?:[Tt]|\\s+)" + TIME_RE + ")?" + TZ_RE + "?(\\s+(?i:bc|ad))?\\s*");
    private static final Pattern TIME = Pattern.compile("\\s*" + TIME_RE + TZ_RE + "?\\s*");

    /** A parsed date and optional time of day and zone; {@code plusDay} marks 24:00:00. */
    private record Parts(LocalDate date, LocalTime time, boolean plusDay, ZoneId zone) {
        LocalDateTime dateTime() {
            LocalDateTime ts = LocalDateTime.of(date, time == null ? LocalTime.MIDNIGHT : time);
            return plusDay ? ts.plusDays(1) : ts;
        }
    }

    private static SqlException syntax(String type, String text) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT,
                "invalid input syntax for type " + type + ": \"" + text + "\"");
    }

    private static SqlException range(String text) {
        return new SqlException(SqlState.DATETIME_FIELD_OVERFLOW,
                "date/time field value out of range: \"" + text + "\"");
    }

    private static Parts parseParts(String type, String text) {
        String special = text.strip().toLowerCase(Locale.ROOT);
        if (special.equals("epoch")) return new Parts(LocalDate.of(1970, 1, 1), null, false, ZoneOffset.UTC);
        Matcher m = DATE.matcher(withNumericMonth(text));
        if (!m.matches()) throw syntax(type, text);
        try {
            int y, mo, d;
            if (m.group(1) != null) {
                y = Integer.parseInt(m.group(1)); mo = Integer.parseInt(m.group(2)); d = Integer.parseInt(m.group(3));
            } else if (m.group(4) != null) {
                y = Integer.parseInt(m.group(4)); mo = Integer.parseInt(m.group(5)); d = Integer.parseInt(m.group(6));
            } else {
                mo = Integer.parseInt(m.group(7)); d = Integer.parseInt(m.group(8)); y = Integer.parseInt(m.group(9));
            }
            if (m.group(16) != null && m.group(16).strip().equalsIgnoreCase("bc")) {
                if (y == 0) throw range(text);
                y = 1 - y;
            } else if (y == 0) {
                throw range(text);
            }
            LocalDate date = LocalDate.of(y, mo, d);
            TimeOfDay t = m.group(10) == null ? null
                    : timeOfDay(text, m.group(10), m.group(11), m.group(12), m.group(13));
            ZoneId zone = zone(type, text, m.group(14), m.group(15));
            return new Parts(date, t == null ? null : t.time, t != null && t.plusDay, zone);
        } catch (DateTimeException | NumberFormatException e) {
            throw range(text);
        }
    }

    private record TimeOfDay(LocalTime time, boolean plusDay) {}

    private static TimeOfDay timeOfDay(String text, String h, String mi, String s, String frac) {
        int hour = Integer.parseInt(h), minute = Integer.parseInt(mi), second = s == null ? 0 : Integer.parseInt(s);
        long micros = 0;
        if (frac != null && !frac.isEmpty()) {
            // Round to microseconds, half away from zero.
            String f = (frac + "0000000").substring(0, 7);
            micros = (Long.parseLong(f) + 5) / 10;
        }
        if (minute > 59 || second > 60 || hour > 24) throw range(text);
        if (hour == 24) {
            if (minute != 0 || second != 0 || micros != 0) throw range(text);
            return new TimeOfDay(LocalTime.MIDNIGHT, true);
        }
        long total = ((hour * 60L + minute) * 60 + second) * 1_000_000L + micros;
        boolean plusDay = total >= Interval.MICROS_PER_DAY;
        if (plusDay) total -= Interval.MICROS_PER_DAY;
        return new TimeOfDay(LocalTime.ofNanoOfDay(total * 1000), plusDay);
    }

    private static ZoneId zone(String type, String text, String offset, String name) {
        try {
            if (offset != null) {
                if (offset.equalsIgnoreCase("z")) return ZoneOffset.UTC;
                String digits = offset.substring(1).replace(":", "");
                int h, mi = 0, s = 0;
                if (digits.length() <= 2) h = Integer.parseInt(digits);
                else {
                    int hl = digits.length() % 2 == 0 ? 2 : 1;
                    h = Integer.parseInt(digits.substring(0, hl));
                    mi = Integer.parseInt(digits.substring(hl, hl + 2));
                    if (digits.length() > hl + 2) s = Integer.parseInt(digits.substring(hl + 2));
                }
                int sign = offset.charAt(0) == '-' ? -1 : 1;
                return ZoneOffset.ofTotalSeconds(sign * (h * 3600 + mi * 60 + s));
            }
            if (name != null) return zoneByName(name);
            return null;
        } catch (DateTimeException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "time zone \"" + (name != null ? name : offset) + "\" not recognized");
        }
    }

    /** A time zone by PostgreSQL name: an IANA name, UTC/GMT, or an abbreviation Java knows. */
    static ZoneId zoneByName(String name) {
        String n = name.strip();
        if (n.equalsIgnoreCase("utc") || n.equalsIgnoreCase("gmt") || n.equalsIgnoreCase("z")
                || n.equalsIgnoreCase("zulu")) return ZoneOffset.UTC;
        String id = ZoneIds.BY_LOWER_NAME.get(n.toLowerCase(Locale.ROOT));
        if (id != null) return ZoneId.of(id);
        try {
            return ZoneId.of(n.toUpperCase(Locale.ROOT), ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "time zone \"" + name + "\" not recognized");
        }
    }

    private static final String MONTH_RE =
            "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
    private static final String DOW_RE = "(?:(?:sun|mon|tue|wed|thu|fri|sat)[a-z]*,?\\s+)?";
    /** "Jan 31 2024", "January 31, 2024", "Wed Jan 31 2024". */
    private static final Pattern MONTH_DAY_YEAR = Pattern.compile(
            "(?i)\\s*" + DOW_RE + MONTH_RE + "\\s+(\\d{1,2}),?\\s+(\\d{1,9})(.*)");
    /** "31 Jan 2024", "31-Jan-2024". */
    private static final Pattern DAY_MONTH_YEAR = Pattern.compile(
            "(?i)\\s*" + DOW_RE + "(\\d{1,2})[\\s-]" + MONTH_RE + "[\\s-](\\d{1,9})(.*)");
    /** "2024-Jan-31". */
    private static final Pattern YEAR_MONTH_DAY = Pattern.compile("(?i)\\s*(\\d{3,9})-" + MONTH_RE + "-(\\d{1,2})(.*)");

    /** Rewrites a date spelled with a month name into ISO order, leaving other text unchanged. */
    private static String withNumericMonth(String text) {
        if (text.chars().noneMatch(Character::isLetter)) return text;
        Matcher m = MONTH_DAY_YEAR.matcher(text);
        if (m.matches()) return m.group(3) + "-" + month(m.group(1)) + "-" + m.group(2) + m.group(4);
        m = DAY_MONTH_YEAR.matcher(text);
        if (m.matches()) return m.group(3) + "-" + month(m.group(2)) + "-" + m.group(1) + m.group(4);
        m = YEAR_MONTH_DAY.matcher(text);
        if (m.matches()) return m.group(1) + "-" + month(m.group(2)) + "-" + m.group(3) + m.group(4);
        return text;
    }

    private static int month(String name) {
        String n = name.substring(0, 3).toLowerCase(Locale.ROOT);
        return "janfebmaraprmayjunjulaugsepoctnovdec".indexOf(n) / 3 + 1;
    }

    /** PostgreSQL's special date/time inputs, or null when {@code text} is not one. */
    static Object special(TypeKind kind, String text, ZoneId zone, Instant now) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int dayOffset;
        switch (t) {
            case "now" -> {
                Instant n = (now == null ? Instant.now() : now).truncatedTo(ChronoUnit.MICROS);
                return switch (kind) {
                    case DATE -> LocalDate.ofInstant(n, zone);
                    case TIME -> LocalTime.ofInstant(n, zone);
                    case TIMESTAMP -> LocalDateTime.ofInstant(n, zone);
                    default -> n;
                };
            }
            case "allballs" -> {
                return kind == TypeKind.TIME ? LocalTime.MIDNIGHT : null;
            }
            case "today" -> dayOffset = 0;
            case "tomorrow" -> dayOffset = 1;
            case "yesterday" -> dayOffset = -1;
            default -> {
                return null;
            }
        }
        LocalDate d = LocalDate.ofInstant(now == null ? Instant.now() : now, zone).plusDays(dayOffset);
        return switch (kind) {
            case DATE -> d;
            case TIMESTAMP -> d.atStartOfDay();
            case TIMESTAMPTZ -> d.atStartOfDay(zone).toInstant();
            default -> null; // today::time is an error in PostgreSQL; let the normal parser reject it
        };
    }

    static LocalDate parseDate(String text) {
        Parts p = parseParts("date", text);
        return p.date;
    }

    static LocalDateTime parseTimestamp(String text) {
        // A zone in timestamp-without-time-zone input is ignored, as in PostgreSQL.
        return parseParts("timestamp", text).dateTime();
    }

    static Instant parseTimestampTz(String text, ZoneId sessionZone) {
        Parts p = parseParts("timestamp with time zone", text);
        LocalDateTime ts = p.dateTime();
        return ts.atZone(p.zone == null ? sessionZone : p.zone).toInstant();
    }

    static LocalTime parseTime(String text) {
        Matcher m = TIME.matcher(text);
        if (!m.matches()) {
            // PostgreSQL accepts a full timestamp and keeps its time of day.
            try {
                Parts p = parseParts("time", text);
                if (p.time != null) return p.time;
            } catch (SqlException e) {
                if (e.state() != SqlState.INVALID_DATETIME_FORMAT) throw e;
            }
            throw syntax("time", text);
        }
        TimeOfDay t = timeOfDay(text, m.group(1), m.group(2), m.group(3), m.group(4));
        if (t.plusDay) throw range(text);
        return t.time;
    }

    /** IANA zone ids by lower-cased name, built once on first use (PostgreSQL matches zone names case-insensitively). */
    private static final class ZoneIds {
        static final Map<String, String> BY_LOWER_NAME = ZoneId.getAvailableZoneIds().stream()
                .collect(Collectors.toUnmodifiableMap(z -> z.toLowerCase(Locale.ROOT), z -> z, (x, y) -> x));
    }
}
