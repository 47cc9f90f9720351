package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.Numbers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.time.temporal.JulianFields;
import java.util.Locale;

/**
 * A subset of PostgreSQL's {@code to_char} and {@code to_timestamp(text, text)} templates.
 *
 * <p>Date/time patterns: YYYY YYY YY Y IYYY MM MONTH Month month MON Mon mon DD DDD D ID
 * DAY Day day DY Dy dy HH HH12 HH24 MI SS MS US FF1-FF6 SSSS AM PM am pm A.M. P.M. Q WW
 * IW W CC J TZ tz OF BC AD, the FM prefix (no padding), FX/TM prefixes (ignored),
 * "quoted text" and backslash escapes; other characters are copied. Numeric patterns:
 * 9 0 . D , G S MI PL and FM. Not supported: RM, TH/th suffixes, EEEE, V, SG.
 */
final class ToChar {
    private ToChar() {}

    private static final String[] DATE_TOKENS = {
            "A.D.", "A.M.", "B.C.", "P.M.", "a.d.", "a.m.", "b.c.", "p.m.",
            "MONTH", "Month", "month", "SSSSS", "SSSS", "IYYY", "YYYY", "HH24", "HH12",
            "IDDD", "DAY", "Day", "day", "MON", "Mon", "mon", "YYY", "IYY", "DDD", "FF1", "FF2", "FF3", "FF4",
            "FF5", "FF6",
            "AD", "ad", "BC", "bc", "AM", "am", "PM", "pm", "DY", "Dy", "dy", "DD", "MM", "MI", "SS", "MS", "US", "HH",
            "YY", "IY", "IW", "WW", "CC", "ID", "TZ", "tz", "OF",
            "Y", "I", "D", "J", "Q", "W"};

    private static boolean startsWithToken(String fmt, int i, String tok) {
        if (fmt.regionMatches(i, tok, 0, tok.length())) return true;
        // Numeric fields are case-insensitive (hh24, yyyy, mi...); text fields keep their case forms.
        boolean caseFree = tok.chars().noneMatch(Character::isLetter) ? false
                : !(tok.equalsIgnoreCase("month") || tok.equalsIgnoreCase("mon") || tok.equalsIgnoreCase("day")
                || tok.equalsIgnoreCase("dy") || tok.equalsIgnoreCase("am") || tok.equalsIgnoreCase("pm")
                || tok.equalsIgnoreCase("tz") || tok.equalsIgnoreCase("bc") || tok.equalsIgnoreCase("ad")
                || tok.contains("."));
        return caseFree && fmt.regionMatches(true, i, tok, 0, tok.length());
    }

    static String formatDateTime(LocalDateTime t, ZonedDateTime zoned, String fmt) {
        StringBuilder out = new StringBuilder(fmt.length() + 16);
        int i = 0;
        while (i < fmt.length()) {
            boolean fm = false;
            while (true) {
                if (fmt.regionMatches(true, i, "FM", 0, 2)) { fm = true; i += 2; }
                else if (fmt.regionMatches(true, i, "FX", 0, 2) || fmt.regionMatches(true, i, "TM", 0, 2)) i += 2;
                else break;
            }
            if (i >= fmt.length()) break;
            char c = fmt.charAt(i);
            if (c == '"') {
                int j = i + 1;
                while (j < fmt.length() && fmt.charAt(j) != '"') {
                    if (fmt.charAt(j) == '\\' && j + 1 < fmt.length()) j++;
                    out.append(fmt.charAt(j++));
                }
                i = j + 1;
                continue;
            }
            if (c == '\\' && i + 1 < fmt.length()) {
                out.append(fmt.charAt(i + 1));
                i += 2;
                continue;
            }
            String tok = null;
            for (String k : DATE_TOKENS) {
                if (startsWithToken(fmt, i, k)) { tok = k; break; }
            }
            if (tok == null) {
                out.append(c);
                i++;
                continue;
            }
            i += tok.length();
            out.append(dateField(tok, t, zoned, fm));
        }
        return out.toString();
    }

    private static String num(long v, int width, boolean fm) {
        String s = Long.toString(Math.abs(v));
        if (!fm) while (s.length() < width) s = "0" + s;
        return v < 0 ? "-" + s : s;
    }

    private static String text(String s, String tok, boolean fm) {
        String r = Character.isUpperCase(tok.charAt(1)) ? s.toUpperCase(Locale.ROOT)
                : Character.isUpperCase(tok.charAt(0)) ? s : s.toLowerCase(Locale.ROOT);
        // Full month and day names pad to 9 characters; abbreviations never pad.
        boolean full = tok.equalsIgnoreCase("month") || tok.equalsIgnoreCase("day");
        if (fm || !full) return r;
        return String.format("%-9s", r);
    }

    private static String dateField(String tok, LocalDateTime t, ZonedDateTime zoned, boolean fm) {
        int year = t.getYear() <= 0 ? 1 - t.getYear() : t.getYear();
        int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
        boolean pm = t.getHour() >= 12;
        String upper = tok.toUpperCase(Locale.ROOT);
        return switch (upper) {
            case "YYYY" -> num(year, 4, fm);
            case "YYY" -> num(year % 1000, 3, fm);
            case "YY" -> num(year % 100, 2, fm);
            case "Y" -> num(year % 10, 1, fm);
            case "IYYY" -> num(t.get(IsoFields.WEEK_BASED_YEAR), 4, fm);
            case "IYY" -> num(t.get(IsoFields.WEEK_BASED_YEAR) % 1000, 3, fm);
            case "IY" -> num(t.get(IsoFields.WEEK_BASED_YEAR) % 100, 2, fm);
            case "I" -> num(t.get(IsoFields.WEEK_BASED_YEAR) % 10, 1, fm);
            case "MM" -> num(t.getMonthValue(), 2, fm);
            case "MONTH" -> text(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH), tok, fm);
            case "MON" -> text(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), tok, fm);
            case "DAY" -> text(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH), tok, fm);
            case "DY" -> text(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), tok, fm);
            case "DD" -> num(t.getDayOfMonth(), 2, fm);
            case "DDD" -> num(t.getDayOfYear(), 3, fm);
            case "IDDD" -> num((t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR) - 1) * 7L + t.getDayOfWeek().getValue(), 3, fm);
            case "D" -> num(t.getDayOfWeek().getValue() % 7 + 1, 1, fm);
            case "ID" -> num(t.getDayOfWeek().getValue(), 1, fm);
            case "HH", "HH12" -> num(hour12, 2, fm);
            case "HH24" -> num(t.getHour(), 2, fm);
            case "MI" -> num(t.getMinute(), 2, fm);
            case "SS" -> num(t.getSecond(), 2, fm);
            case "MS" -> num(t.getNano() / 1_000_000, 3, fm);
            case "US" -> num(t.getNano() / 1000, 6, fm);
            case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6" -> {
                int n = upper.charAt(2) - '0';
                yield num(t.getNano() / (long) Math.pow(10, 9 - n), n, false);
            }
            case "SSSS", "SSSSS" -> num(t.toLocalTime().toSecondOfDay(), 1, fm);
            case "AM", "PM" -> Character.isUpperCase(tok.charAt(0)) ? (pm ? "PM" : "AM") : (pm ? "pm" : "am");
            case "A.M.", "P.M." -> Character.isUpperCase(tok.charAt(0)) ? (pm ? "P.M." : "A.M.") : (pm ? "p.m." : "a.m.");
            case "AD", "BC" -> Character.isUpperCase(tok.charAt(0)) ? (t.getYear() <= 0 ? "BC" : "AD")
                    : (t.getYear() <= 0 ? "bc" : "ad");
            case "A.D.", "B.C." -> Character.isUpperCase(tok.charAt(0)) ? (t.getYear() <= 0 ? "B.C." : "A.D.")
                    : (t.getYear() <= 0 ? "b.c." : "a.d.");
            case "Q" -> num((t.getMonthValue() - 1) / 3 + 1, 1, fm);
            case "WW" -> num((t.getDayOfYear() - 1) / 7 + 1, 2, fm);
            case "IW" -> num(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, fm);
            case "W" -> num((t.getDayOfMonth() - 1) / 7 + 1, 1, fm);
            case "CC" -> num(t.getYear() > 0 ? (t.getYear() + 99) / 100 : -((99 - (t.getYear() - 1)) / 100), 2, fm);
            case "J" -> num(t.toLocalDate().getLong(JulianFields.JULIAN_DAY), 1, fm);
            case "TZ" -> {
                if (zoned == null) yield "";
                String abbr = zoned.getZone() instanceof ZoneOffset || zoned.getZone().getId().equals("UTC")
                        ? (zoned.getOffset().getTotalSeconds() == 0 ? "UTC" : zoned.getOffset().getId())
                        : DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH).format(zoned);
                yield Character.isUpperCase(tok.charAt(0)) ? abbr : abbr.toLowerCase(Locale.ROOT);
            }
            case "OF" -> {
                if (zoned == null) yield "";
                int off = zoned.getOffset().getTotalSeconds();
                String s = (off < 0 ? "-" : "+") + num(Math.abs(off) / 3600, 2, false);
                if (off % 3600 != 0) s += ":" + num(Math.abs(off) % 3600 / 60, 2, false);
                yield s;
            }
            default -> tok;
        };
    }

    static String formatInterval(Interval iv, String fmt) {
        // Interval fields map onto a pseudo timestamp: years, months, days, and hours that may exceed 24.
        long years = iv.months() / 12, months = iv.months() % 12;
        long us = iv.micros();
        long hours = us / 3_600_000_000L;
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < fmt.length()) {
            boolean fm = false;
            if (fmt.regionMatches(true, i, "FM", 0, 2)) { fm = true; i += 2; }
            String tok = null;
            for (String k : DATE_TOKENS) {
                if (i < fmt.length() && startsWithToken(fmt, i, k)) { tok = k; break; }
            }
            if (i >= fmt.length()) break;
            if (tok == null) { out.append(fmt.charAt(i++)); continue; }
            i += tok.length();
            long secOfMin = Math.abs(us) / 1_000_000L % 60;
            out.append(switch (tok.toUpperCase(Locale.ROOT)) {
                case "YYYY" -> num(years, 4, fm);
                case "YY" -> num(years % 100, 2, fm);
                case "MM" -> num(months, 2, fm);
                case "DD" -> num(iv.days(), 2, fm);
                case "DDD" -> num(iv.days(), 3, fm);
                case "HH24" -> num(hours, 2, fm);
                case "HH", "HH12" -> num(hours % 12 == 0 ? 12 : hours % 12, 2, fm);
                case "MI" -> num(Math.abs(us) / 60_000_000L % 60, 2, fm);
                case "SS" -> num(secOfMin, 2, fm);
                case "MS" -> num(Math.abs(us) / 1000 % 1000, 3, fm);
                case "US" -> num(Math.abs(us) % 1_000_000, 6, fm);
                case "SSSS", "SSSSS" -> num(us / 1_000_000L, 1, fm);
                default -> tok;
            });
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ numbers

    static String formatNumber(Number n, String fmt) {
        boolean fm = false;
        int intDigits = 0, fracDigits = 0, firstZero = -1;
        boolean seenPoint = false;
        String f = fmt;
        if (f.regionMatches(true, 0, "FM", 0, 2)) { fm = true; f = f.substring(2); }
        for (int i = 0; i < f.length(); i++) {
            char c = f.charAt(i);
            if (c == '9' || c == '0') {
                if (seenPoint) fracDigits++;
                else {
                    if (c == '0' && firstZero < 0) firstZero = intDigits;
                    intDigits++;
                }
            } else if ((c == '.' || c == 'D' || c == 'd') && !seenPoint) {
                seenPoint = true;
            }
        }
        BigDecimal v;
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return "#".repeat(intDigits + fracDigits + 1 + (seenPoint ? 1 : 0));
            v = new BigDecimal(Double.toString(d));
        } else {
            v = Numbers.toBigDecimal(n);
        }
        v = v.setScale(fracDigits, RoundingMode.HALF_UP);
        boolean negative = v.signum() < 0;
        String digits = v.abs().toPlainString();
        String intPart = fracDigits > 0 ? digits.substring(0, digits.indexOf('.')) : digits;
        String fracPart = fracDigits > 0 ? digits.substring(digits.indexOf('.') + 1) : "";
        if (intPart.equals("0") && (fracDigits > 0 || intDigits == 0)) intPart = "";
        if (intPart.equals("0") && intDigits > 0) intPart = "0";
        boolean overflow = intPart.length() > intDigits;
        String upperFmt = f.toUpperCase(Locale.ROOT);
        // A leading S puts the sign ('+' or '-') right before the first digit, like the implicit sign.
        boolean leadingS = !upperFmt.isEmpty() && upperFmt.charAt(0) == 'S';
        boolean explicitSign = !leadingS && (upperFmt.contains("S") || upperFmt.contains("MI"));
        String plus = leadingS ? "+" : fm ? "" : " ";
        StringBuilder out = new StringBuilder();
        int digitPos = 0, fracPos = 0;
        boolean printed = false, signDone = explicitSign;
        boolean inFrac = false;
        int lastSignificant = fracPart.length();
        if (fm) {
            // FM drops trailing zeros in '9' fraction positions.
            while (lastSignificant > 0 && fracPart.charAt(lastSignificant - 1) == '0'
                    && nthFracChar(f, lastSignificant - 1) == '9') lastSignificant--;
        }
        for (int i = 0; i < f.length(); i++) {
            char c = f.charAt(i);
            String rest = f.substring(i).toUpperCase(Locale.ROOT);
            if (!inFrac && (c == '9' || c == '0')) {
                int idx = digitPos - (intDigits - intPart.length());
                boolean zeroFill = firstZero >= 0 && digitPos >= firstZero;
                if (overflow) {
                    if (!signDone) { out.append(' '); signDone = true; }
                    out.append('#');
                } else if (idx >= 0 || zeroFill) {
                    if (!signDone) { out.append(negative ? "-" : plus); signDone = true; }
                    out.append(idx >= 0 ? intPart.charAt(idx) : '0');
                    printed = true;
                } else if (!fm) {
                    out.append(' ');
                }
                digitPos++;
            } else if (!inFrac && (c == '.' || c == 'D' || c == 'd')) {
                if (!signDone) { out.append(negative ? "-" : plus); signDone = true; }
                inFrac = true;
                out.append('.');
            } else if (inFrac && (c == '9' || c == '0')) {
                if (overflow) out.append('#');
                else if (fracPos < lastSignificant || c == '0') out.append(fracPart.charAt(fracPos));
                fracPos++;
            } else if (c == ',' || c == 'G' || c == 'g') {
                if (printed || overflow) out.append(',');
                else if (!fm) out.append(' ');
            } else if (rest.startsWith("MI")) {
                out.append(negative ? "-" : fm ? "" : " ");
                i++;
            } else if (rest.startsWith("PL")) {
                out.append(negative ? "" : "+");
                i++;
            } else if (c == 'S' || c == 's') {
                if (!(leadingS && i == 0)) out.append(negative ? '-' : '+');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static char nthFracChar(String f, int n) {
        int p = f.indexOf('.');
        if (p < 0) p = f.toUpperCase(Locale.ROOT).indexOf('D');
        int count = 0;
        for (int i = p + 1; i < f.length(); i++) {
            char c = f.charAt(i);
            if (c == '9' || c == '0') {
                if (count == n) return c;
                count++;
            }
        }
        return '9';
    }

    // ------------------------------------------------------------------ to_timestamp(text, fmt)

    /** to_timestamp(text, template) for the numeric and month-name fields of the subset above. */
    static Instant parseTimestamp(String s, String fmt, ZoneId zone) {
        int year = 1, month = 1, day = 1, hour = 0, minute = 0, second = 0;
        long micros = 0;
        boolean pm = false, hour12 = false;
        int i = 0, p = 0;
        while (i < fmt.length()) {
            if (fmt.regionMatches(true, i, "FM", 0, 2) || fmt.regionMatches(true, i, "FX", 0, 2)) { i += 2; continue; }
            String tok = null;
            for (String k : DATE_TOKENS) {
                if (startsWithToken(fmt, i, k)) { tok = k; break; }
            }
            if (tok == null) {
                i++;
                if (p < s.length() && !Character.isLetterOrDigit(s.charAt(p))) p++;
                continue;
            }
            i += tok.length();
            while (p < s.length() && s.charAt(p) == ' ') p++;
            String up = tok.toUpperCase(Locale.ROOT);
            if (up.equals("MONTH") || up.equals("MON")) {
                int m = matchMonth(s, p);
                if (m < 0) throw badTemplate(s);
                month = m;
                while (p < s.length() && Character.isLetter(s.charAt(p))) p++;
                continue;
            }
            if (up.equals("AM") || up.equals("PM")) {
                if (s.regionMatches(true, p, "PM", 0, 2)) pm = true;
                p += 2;
                continue;
            }
            int width = switch (up) {
                case "YYYY" -> 4;
                case "YY" -> 2;
                case "MS" -> 3;
                case "US" -> 6;
                case "DDD" -> 3;
                default -> 2;
            };
            int start = p;
            boolean neg = p < s.length() && s.charAt(p) == '-' && up.equals("YYYY");
            if (neg) p++;
            while (p < s.length() && Character.isDigit(s.charAt(p)) && (p - start < width || up.equals("YYYY"))) p++;
            if (p == start) throw badTemplate(s);
            long v = Long.parseLong(s.substring(start, p));
            switch (up) {
                case "YYYY" -> year = (int) v;
                case "YY" -> year = (int) (v < 70 ? 2000 + v : 1900 + v);
                case "MM" -> month = (int) v;
                case "DD" -> day = (int) v;
                case "HH24" -> hour = (int) v;
                case "HH", "HH12" -> { hour = (int) v; hour12 = true; }
                case "MI" -> minute = (int) v;
                case "SS" -> second = (int) v;
                case "MS" -> micros = v * (long) Math.pow(10, 3 - (p - start)) * 1000;
                case "US" -> micros = v * (long) Math.pow(10, 6 - (p - start));
                default -> { }
            }
        }
        if (hour12) {
            if (hour < 1 || hour > 12) {
                throw new SqlException(SqlState.INVALID_DATETIME_FORMAT,
                        "hour \"" + hour + "\" is invalid for the 12-hour clock");
            }
            hour = hour % 12 + (pm ? 12 : 0);
        }
        try {
            LocalDateTime t = LocalDateTime.of(year, month, day, hour, minute, second).plusNanos(micros * 1000);
            return t.atZone(zone).toInstant();
        } catch (DateTimeException e) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"" + s + "\"");
        }
    }

    private static int matchMonth(String s, int p) {
        for (Month m : Month.values()) {
            String full = m.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            if (s.regionMatches(true, p, full, 0, full.length())) return m.getValue();
        }
        for (Month m : Month.values()) {
            String abbr = m.getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            if (s.regionMatches(true, p, abbr, 0, 3)) return m.getValue();
        }
        return -1;
    }

    private static SqlException badTemplate(String s) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT, "invalid value \"" + s + "\" for the template");
    }
}
