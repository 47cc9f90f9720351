package io.stillwater.engine.params;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of every system parameter at one moment: immutable, safe to keep and to
 * read from any thread (a replica keeps the snapshot it was provisioned with).
 *
 * @param values    every parameter's effective value, by name, in {@link Params#ALL} order
 * @param overrides the names set by {@code ALTER SYSTEM}, with their canonical text
 */
public record ParameterSnapshot(Map<String, Object> values, Map<String, String> overrides) {
    public ParameterSnapshot {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        overrides = Map.copyOf(overrides);
    }

    /** {@code param}'s value in this snapshot. */
    @SuppressWarnings("unchecked")
    public <T> T get(Param<T> param) {
        Object v = values.get(param.name());
        if (v == null) throw new IllegalArgumentException("unknown parameter " + param.name());
        return (T) v;
    }

    /** {@code param}'s value as canonical text. */
    public String text(Param<?> param) { return param.format(values.get(param.name())); }

    /** Whether {@code ALTER SYSTEM} set {@code param}. */
    public boolean isOverridden(Param<?> param) { return overrides.containsKey(param.name()); }
}
