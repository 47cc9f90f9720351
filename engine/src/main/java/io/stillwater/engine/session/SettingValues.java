package io.stillwater.engine.session;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * PostgreSQL's validation of session variable values: what {@code SET} accepts for each
 * enumerated, boolean, integer and list-valued variable, and the canonical spelling
 * {@code SHOW} then prints ({@code SET DateStyle = 'dmy'} shows {@code ISO, DMY}). A value
 * PostgreSQL 15 rejects is 22023 with PostgreSQL's message; stateless.
 */
final class SettingValues {
    private SettingValues() {}

    private static final List<String> MESSAGE_LEVELS =
            List.of("debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error");
    private static final List<String> INTERVAL_STYLES =
            List.of("postgres", "postgres_verbose", "sql_standard", "iso_8601");
    /** The encodings PostgreSQL accepts as client_encoding besides UTF8 (which we do not convert to). */
    private static final Set<String> OTHER_ENCODINGS = Set.of("sql_ascii", "latin1", "latin2", "latin3", "latin4",
            "latin5", "latin6", "latin7", "latin8", "latin9", "latin10", "win1250", "win1251", "win1252", "win1253",
            "win1254", "win1255", "win1256", "win1257", "win1258", "win866", "win874", "koi8r", "koi8u", "euc_jp",
            "euc_kr", "euc_cn", "euc_tw", "euc_jis_2004", "sjis", "shift_jis_2004", "big5", "gbk", "gb18030", "uhc",
            "johab", "mule_internal", "iso_8859_5", "iso_8859_6", "iso_8859_7", "iso_8859_8");

    /**
     * The value to store for {@code name} (lower-case canonical name), or the 22023 error
     * PostgreSQL gives. {@code current} is the variable's value before this SET.
     */
    static String validate(String name, String value, String current) {
        return switch (name) {
            case "datestyle" -> dateStyle(value, current);
            case "intervalstyle" -> oneOf("intervalstyle", value, INTERVAL_STYLES);
            case "client_min_messages" -> oneOf("client_min_messages", value, MESSAGE_LEVELS);
            case "extra_float_digits" -> integer("extra_float_digits", value, -15, 3);
            case "client_encoding" -> clientEncoding(value);
            case "standard_conforming_strings" -> bool("standard_conforming_strings", value);
            case "transaction_read_only", "default_transaction_read_only" -> bool(name, value);
            case "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout" -> {
                try {
                    StatementTimeout.parseMillis(value);
                } catch (SqlException e) {
                    throw invalid(name, value, e.hint());
                }
                yield value;
            }
            default -> value;
        };
    }

    /**
     * DateStyle: a list of an output style (ISO, SQL, Postgres, German) and a field order
     * (DMY/Euro/European, MDY/US/NonEuro/NonEuropean, YMD), either of which may be left
     * out (kept from the current value; German alone implies DMY). Shown as "ISO, MDY".
     */
    private static String dateStyle(String value, String current) {
        String[] was = current.split("\\s*,\\s*");
        String style = null;
        String order = null;
        for (String word : value.split("[\\s,]+")) {
            if (word.isEmpty()) continue;
            String w = word.toLowerCase(Locale.ROOT);
            String newStyle = switch (w) {
                case "iso" -> "ISO";
                case "sql" -> "SQL";
                case "postgres" -> "Postgres";
                case "german" -> "German";
                default -> null;
            };
            String newOrder = switch (w) {
                case "dmy", "euro", "european" -> "DMY";
                case "mdy", "us", "noneuro", "noneuropean" -> "MDY";
                case "ymd" -> "YMD";
                default -> null;
            };
            if (w.equals("default")) {
                newStyle = "ISO";
                newOrder = "MDY";
            } else if (newStyle == null && newOrder == null) {
                throw invalid("DateStyle", value, null, "Unrecognized key word: \"" + w + "\".");
            }
            if ((newStyle != null && style != null && !style.equals(newStyle))
                    || (newOrder != null && order != null && !order.equals(newOrder))) {
                throw invalid("DateStyle", value, null, "Conflicting \"datestyle\" specifications.");
            }
            if (newStyle != null) style = newStyle;
            if (newOrder != null) order = newOrder;
        }
        if (style == null && order == null) throw invalid("DateStyle", value, null, null);
        if (style == null) style = was[0];
        if (order == null) order = "German".equals(style) && !"German".equals(was[0]) ? "DMY"
                : was.length > 1 ? was[1] : "MDY";
        return style + ", " + order;
    }

    private static String oneOf(String name, String value, List<String> allowed) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (allowed.contains(v)) return v;
        if (name.equals("client_min_messages") && v.equals("debug")) return "debug2";
        throw invalid(name, value, "Available values: " + String.join(", ", allowed) + ".");
    }

    /** An integer setting; like PostgreSQL, a decimal value is rounded half to even. */
    private static String integer(String name, String value, int min, int max) {
        double d;
        try {
            d = Math.rint(Double.parseDouble(value.trim()));
        } catch (NumberFormatException e) {
            throw invalid(name, value, null);
        }
        if (Double.isNaN(d)) throw invalid(name, value, null);
        if (d < min || d > max) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, value.trim()
                    + " is outside the valid range for parameter \"" + name + "\" (" + min + " .. " + max + ")");
        }
        return Long.toString((long) d);
    }

    private static String clientEncoding(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        if (v.equals("utf8") || v.equals("unicode")) return "UTF8";
        String named = value.trim().toLowerCase(Locale.ROOT).replace("-", "_");
        if (OTHER_ENCODINGS.contains(named) || OTHER_ENCODINGS.contains(v)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "client_encoding \"" + value + "\" is not supported", null,
                    "Stillwater speaks UTF8 only: SET client_encoding = 'UTF8'.");
        }
        throw invalid("client_encoding", value, null);
    }

    /** PostgreSQL's parse_bool: on/off, true/false, yes/no, 1/0 and their unique prefixes. */
    private static String bool(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        boolean ok = !v.isEmpty() && (v.equals("1") || v.equals("0")
                || "true".startsWith(v) || "false".startsWith(v) || "yes".startsWith(v) || "no".startsWith(v)
                || (v.length() >= 2 && ("on".startsWith(v) || "off".startsWith(v))));
        if (!ok) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "parameter \"" + name + "\" requires a Boolean value");
        }
        return value;
    }

    private static SqlException invalid(String name, String value, String hint) {
        return invalid(name, value, hint, null);
    }

    private static SqlException invalid(String name, String value, String hint, String detail) {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                "invalid value for parameter \"" + name + "\": \"" + value + "\"", detail, hint);
    }
}
