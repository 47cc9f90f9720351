package io.stillwater.engine.params;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses system parameter defaults written {@code name=value;name=value} (the {@code serve
 * --system-parameter-default} flag and the bench's {@code --this-params/--other-params}).
 * Whitespace around names and values is ignored, empty entries between semicolons are
 * skipped, a later entry for a name wins. Values are validated against the registry.
 */
public final class StartupDefaults {
    private StartupDefaults() {}

    /**
     * {@code name -> canonical value text}, in the order given.
     *
     * @throws SqlException 22023 for an entry without {@code =} or an invalid value,
     *     42704 for an unknown name
     */
    public static Map<String, String> parse(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : spec.split(";")) {
            if (entry.isBlank()) continue;
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                        "invalid system parameter default \"" + entry.strip() + "\"", null,
                        "Write name=value, separated by semicolons: 'max_connections=100;statement_timeout=10s'.");
            }
            Param<?> p = Params.require(entry.substring(0, eq).strip());
            String text = unquote(entry.substring(eq + 1).strip());
            out.remove(p.name());
            out.put(p.name(), p.format(p.parse(text)));
        }
        return out;
    }

    /** {@code 'x'} or {@code "x"} is {@code x}, so values may be written as in SQL. */
    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
