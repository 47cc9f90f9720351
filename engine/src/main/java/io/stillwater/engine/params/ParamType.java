package io.stillwater.engine.params;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type of a system parameter: how its text form parses (as PostgreSQL and Materialize
 * spell settings), how a value prints (canonically: {@code parse(format(v))} is {@code
 * v}), and which values are allowed.
 *
 * <p>{@link #parse} throws {@link IllegalArgumentException} whose message says what is
 * wrong with the text (it becomes the error's DETAIL); {@link Param#parse} turns it into
 * the user-facing 22023 error with the parameter's name and {@link #accepted()} as HINT.
 */
public sealed interface ParamType<T>
        permits ParamType.BoolType, ParamType.IntType, ParamType.DurationType, ParamType.ByteSizeType,
        ParamType.EnumType {

    /** Parses a setting's text. */
    T parse(String text);

    /** The canonical text of a value of this type. */
    String format(T value);

    /** Throws {@link IllegalArgumentException} if {@code value} is outside this type's range. */
    void check(T value);

    /** What the type accepts, one sentence, for the HINT of an invalid value and for docs. */
    String accepted();

    /** The type's name in docs: boolean, integer, duration, byte size, enum. */
    String typeName();

    /** PostgreSQL booleans: on/off, true/false, yes/no, 1/0 (any case); prints on/off. */
    record BoolType() implements ParamType<Boolean> {
        public Boolean parse(String text) {
            return switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "on", "true", "t", "yes", "y", "1" -> true;
                case "off", "false", "f", "no", "n", "0" -> false;
                default -> throw new IllegalArgumentException("\"" + text + "\" is not a boolean");
            };
        }

        public String format(Boolean value) { return value ? "on" : "off"; }

        public void check(Boolean value) { }

        public String accepted() { return "Available values: on, off, true, false."; }

        public String typeName() { return "boolean"; }
    }

    /** A whole number in {@code [min, max]}. */
    record IntType(int min, int max) implements ParamType<Integer> {
        public IntType {
            if (min > max) throw new IllegalArgumentException("min > max");
        }

        public Integer parse(String text) {
            int v;
            try {
                v = Integer.parseInt(text.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + text + "\" is not an integer");
            }
            check(v);
            return v;
        }

        public String format(Integer value) { return Integer.toString(value); }

        public void check(Integer value) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(value + " is outside the valid range " + min + " .. " + max);
            }
        }

        public String accepted() { return "Valid values are integers from " + min + " to " + max + "."; }

        public String typeName() { return "integer"; }
    }

    /**
     * A duration with PostgreSQL's units: {@code 500ms}, {@code 10s}, {@code 5min},
     * {@code 2h}, {@code 1d}; a bare number is milliseconds (as for PostgreSQL's
     * {@code statement_timeout}). Millisecond resolution, in {@code [min, max]}.
     */
    record DurationType(Duration min, Duration max) implements ParamType<Duration> {
        private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|min|h|d)?");

        public Duration parse(String text) {
            Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
            if (!m.matches()) throw new IllegalArgumentException("\"" + text + "\" is not a duration");
            Duration d;
            try {
                long n = Long.parseLong(m.group(1));
                long millis = Math.multiplyExact(n, switch (m.group(2) == null ? "ms" : m.group(2)) {
                    case "ms" -> 1L;
                    case "s" -> 1_000L;
                    case "min" -> 60_000L;
                    case "h" -> 3_600_000L;
                    default -> 86_400_000L;
                });
                d = Duration.ofMillis(millis);
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalArgumentException("\"" + text + "\" is too large");
            }
            check(d);
            return d;
        }

        /** The largest unit that divides the value exactly: {@code 0}, {@code 500ms}, {@code 10s}, {@code 2min}. */
        public String format(Duration value) {
            long ms = value.toMillis();
            if (ms == 0) return "0";
            if (ms % 86_400_000L == 0) return ms / 86_400_000L + "d";
            if (ms % 3_600_000L == 0) return ms / 3_600_000L + "h";
            if (ms % 60_000L == 0) return ms / 60_000L + "min";
            if (ms % 1_000L == 0) return ms / 1_000L + "s";
            return ms + "ms";
        }

        public void check(Duration value) {
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(format(value) + " is outside the valid range "
                        + format(min) + " .. " + format(max));
            }
        }

        public String accepted() {
            return "A whole number with a unit, one of \"ms\", \"s\", \"min\", \"h\", \"d\" (no unit: milliseconds); "
                    + "from " + format(min) + " to " + format(max) + ".";
        }

        public String typeName() { return "duration"; }
    }

    /**
     * A number of bytes, with PostgreSQL's memory units (powers of 1024): {@code 100MB},
     * {@code 1GB}, {@code 512kB}; {@code KiB/MiB/GiB/TiB} mean the same; a bare number is
     * bytes. In {@code [min, max]}.
     */
    record ByteSizeType(long min, long max) implements ParamType<Long> {
        private static final Pattern FORM = Pattern.compile("(\\d+)\\s*([a-z]*)");
        private static final long KB = 1024, MB = KB * 1024, GB = MB * 1024, TB = GB * 1024;

        public Long parse(String text) {
            Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
            if (!m.matches()) throw new IllegalArgumentException("\"" + text + "\" is not a byte size");
            long unit = switch (m.group(2)) {
                case "", "b" -> 1;
                case "kb", "kib" -> KB;
                case "mb", "mib" -> MB;
                case "gb", "gib" -> GB;
                case "tb", "tib" -> TB;
                default -> throw new IllegalArgumentException("unknown unit \"" + m.group(2) + "\"");
            };
            long bytes;
            try {
                bytes = Math.multiplyExact(Long.parseLong(m.group(1)), unit);
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalArgumentException("\"" + text + "\" is too large");
            }
            check(bytes);
            return bytes;
        }

        /** The largest unit that divides the value exactly: {@code 1GB}, {@code 100MB}, {@code 1000B}. */
        public String format(Long value) {
            long v = value;
            if (v != 0) {
                if (v % TB == 0) return v / TB + "TB";
                if (v % GB == 0) return v / GB + "GB";
                if (v % MB == 0) return v / MB + "MB";
                if (v % KB == 0) return v / KB + "kB";
            }
            return v + "B";
        }

        public void check(Long value) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(format(value) + " is outside the valid range "
                        + format(min) + " .. " + format(max));
            }
        }

        public String accepted() {
            return "A whole number of bytes, optionally with a unit, one of \"B\", \"kB\", \"MB\", \"GB\", \"TB\" "
                    + "(powers of 1024); from " + format(min) + " to " + format(max) + ".";
        }

        public String typeName() { return "byte size"; }

        /** Human-readable, as Materialize prints sizes in errors: {@code 512 B}, {@code 1.0 GiB}. */
        public static String human(long bytes) {
            if (bytes < KB) return bytes + " B";
            String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
            double v = bytes;
            int i = -1;
            while (v >= 1024 && i < units.length - 1) {
                v /= 1024;
                i++;
            }
            return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
        }
    }

    /** One of a fixed set of words, case-insensitive; prints lower case. */
    record EnumType(List<String> values) implements ParamType<String> {
        public EnumType {
            values = values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
            if (values.isEmpty()) throw new IllegalArgumentException("an enum needs values");
        }

        public String parse(String text) {
            String v = text.strip().toLowerCase(Locale.ROOT);
            check(v);
            return v;
        }

        public String format(String value) { return value; }

        public void check(String value) {
            if (!values.contains(value)) throw new IllegalArgumentException("\"" + value + "\" is not one of the values");
        }

        public String accepted() { return "Available values: " + String.join(", ", values) + "."; }

        public String typeName() { return "enum"; }
    }
}
