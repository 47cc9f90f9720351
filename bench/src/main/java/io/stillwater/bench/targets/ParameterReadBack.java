package io.stillwater.bench.targets;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Proves a side's system parameters reached the target: after the launch, each one is read back
 * with {@code SHOW name} as {@value CapabilityProbe#ADMIN_USER} and compared with what was asked.
 * The seed PR's worst finding was a parameter that silently never reached the replica, so a
 * comparison of "on" against "off" measured one configuration twice; here a parameter that is not in
 * effect fails the scenario before anything is measured.
 */
public final class ParameterReadBack {
    private ParameterReadBack() {
    }

    /** What {@code SHOW} reports for each name, in the order given. */
    public static Map<String, String> effective(String jdbcUrl, String password, Iterable<String> names)
            throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = CapabilityProbe.connect(jdbcUrl, CapabilityProbe.ADMIN_USER, password);
                Statement st = c.createStatement()) {
            for (String name : names) {
                try (ResultSet rs = st.executeQuery("SHOW " + name)) {
                    out.put(name, rs.next() ? rs.getString(1) : null);
                }
            }
        }
        return out;
    }

    /**
     * One line per parameter whose effective value differs from the expected one (a parameter
     * missing from {@code effective} differs); empty when all arrived.
     */
    public static List<String> mismatches(Map<String, String> expected, Map<String, String> effective) {
        List<String> out = new ArrayList<>();
        expected.forEach((name, want) -> {
            String got = effective.get(name);
            if (got == null || !sameValue(want, got)) {
                out.add(name + ": asked for " + want + ", SHOW " + name + " as " + CapabilityProbe.ADMIN_USER
                        + " gives " + (got == null ? "nothing" : got));
            }
        });
        return out;
    }

    /**
     * Whether two spellings of a setting mean the same value: equal ignoring case, surrounding
     * quotes and whitespace, or both one boolean (PostgreSQL accepts on/off, true/false, yes/no,
     * 1/0). Other types (sizes, durations) are compared as text: a target that prints them in
     * another form than written fails the check rather than passing it.
     */
    public static boolean sameValue(String a, String b) {
        String x = normal(a);
        String y = normal(b);
        if (x.equals(y)) {
            return true;
        }
        Boolean bx = bool(x);
        Boolean by = bool(y);
        return bx != null && bx.equals(by);
    }

    private static String normal(String v) {
        String s = v.strip();
        if (s.length() >= 2 && (s.startsWith("'") && s.endsWith("'") || s.startsWith("\"") && s.endsWith("\""))) {
            s = s.substring(1, s.length() - 1);
        }
        return s.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    }

    private static Boolean bool(String v) {
        return switch (v) {
            case "on", "true", "yes", "1", "t", "y" -> Boolean.TRUE;
            case "off", "false", "no", "0", "f", "n" -> Boolean.FALSE;
            default -> null;
        };
    }
}
