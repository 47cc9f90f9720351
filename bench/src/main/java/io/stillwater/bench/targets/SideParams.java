package io.stillwater.bench.targets;

import java.util.Collections;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * A side's system parameter defaults ({@code --this-params}, {@code --other-params}):
 * {@code name=value;name=value}. Applied before any replica exists (embedded, jar) or with ALTER
 * SYSTEM (url); a target that cannot apply them never runs the scenario without them.
 *
 * @param values in the order written; names are lower-case identifiers
 */
public record SideParams(Map<String, String> values) {
    public static final SideParams NONE = new SideParams(Map.of());

    /** A system parameter name: a lower-case identifier (it is spliced into ALTER SYSTEM and flags). */
    private static final Pattern PARAMETER_NAME = Pattern.compile("[a-z_][a-z0-9_]*");

    public SideParams {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Parses {@code name=value;name=value}; empty or blank text gives {@link #NONE}. Whitespace
     * around names and values is dropped; a value may contain {@code =} but not {@code ;}; a value
     * written in quotes ({@code 'x'} or {@code "x"}) is {@code x}, as the engine's {@code serve
     * --system-parameter-default} reads it (StartupDefaults), so a side means the same on every target.
     *
     * @throws IllegalArgumentException naming the malformed entry
     */
    public static SideParams parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : text.split(";", -1)) {
            if (entry.isBlank()) {
                continue; // tolerate a trailing ';'
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("parameter \"" + entry.strip() + "\" has no value; write name=value");
            }
            String name = entry.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = unquote(entry.substring(eq + 1).strip());
            if (!PARAMETER_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("\"" + name + "\" is not a parameter name (letters, digits and _)");
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException("parameter " + name + " has an empty value");
            }
            if (out.put(name, value) != null) {
                throw new IllegalArgumentException("parameter " + name + " is given twice");
            }
        }
        return new SideParams(out);
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** Back to {@code name=value;name=value} (the form {@code serve --system-parameter-default} takes). */
    public String render() {
        StringJoiner j = new StringJoiner(";");
        values.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }

    @Override
    public String toString() {
        return values.isEmpty() ? "(defaults)" : render();
    }
}
