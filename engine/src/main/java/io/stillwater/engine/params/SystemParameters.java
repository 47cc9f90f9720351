package io.stillwater.engine.params;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The live system parameter values of one engine.
 *
 * <p>Precedence, highest first: {@code ALTER SYSTEM} overrides (durable), this process's
 * startup defaults (not persisted), the registry defaults.
 *
 * <p>Threading: any thread may read ({@link #get}, {@link #snapshot}); a read sees one
 * immutable {@link ParameterSnapshot}, published through a volatile field. Only the
 * coordinator changes overrides ({@link #applyOverride}, {@link #applyReset}), after the
 * change is durable in the log (and during log replay), one change at a time; changes
 * are serialized on this object. Listeners run synchronously on the changing thread,
 * inside the coordinator's apply step: they must be quick and must not call back into
 * the coordinator (hand work to another thread instead).
 */
public final class SystemParameters {
    /** Validated startup defaults, by name. Immutable. */
    private final Map<String, Object> startupDefaults;
    /** ALTER SYSTEM overrides, by name. Guarded by this. */
    private final Map<String, Object> overrides = new LinkedHashMap<>();
    private volatile ParameterSnapshot snapshot;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    /** Told about every change of a value. */
    @FunctionalInterface
    public interface Listener {
        void changed(ParameterSnapshot before, ParameterSnapshot after);
    }

    /** Ends a listener's registration. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private SystemParameters(Map<String, Object> startupDefaults) {
        this.startupDefaults = Map.copyOf(startupDefaults);
        this.snapshot = build();
    }

    /** Registry defaults only. */
    public SystemParameters() { this(Map.of()); }

    /**
     * With this process's startup defaults ({@code name -> text}, e.g. from {@link
     * StartupDefaults#parse}).
     *
     * @throws io.stillwater.engine.error.SqlException 42704 for an unknown name, 22023
     *     for an invalid value
     */
    public static SystemParameters withStartupDefaults(Map<String, String> defaults) {
        Map<String, Object> parsed = new LinkedHashMap<>();
        defaults.forEach((name, text) -> {
            Param<?> p = Params.require(name);
            parsed.put(p.name(), p.parse(text));
        });
        return new SystemParameters(parsed);
    }

    /** The current value of {@code param}. */
    public <T> T get(Param<T> param) { return snapshot.get(param); }

    /** Every current value, immutable. */
    public ParameterSnapshot snapshot() { return snapshot; }

    /**
     * The current value of the parameter {@code name} as text.
     *
     * @throws io.stillwater.engine.error.SqlException 42704 for an unknown name
     */
    public String text(String name) { return snapshot.text(Params.require(name)); }

    /** The value {@code param} has without an override: startup default, else registry default. */
    public Object defaultValue(Param<?> param) {
        return startupDefaults.getOrDefault(param.name(), param.defaultValue());
    }

    /**
     * Records an {@code ALTER SYSTEM SET} override. For the coordinator, after the change
     * is durable (or while replaying it).
     *
     * @throws io.stillwater.engine.error.SqlException 42704 / 22023 if name or value is invalid
     */
    public void applyOverride(String name, String text) {
        Param<?> p = Params.require(name);
        Object value = p.parse(text);
        change(() -> overrides.put(p.name(), value));
    }

    /** Removes {@code name}'s override, if any. For the coordinator, like {@link #applyOverride}. */
    public void applyReset(String name) {
        Param<?> p = Params.require(name);
        change(() -> overrides.remove(p.name()));
    }

    /** Registers {@code listener} for every later change. */
    public Registration onChange(Listener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private void change(Runnable mutation) {
        ParameterSnapshot before;
        ParameterSnapshot after;
        synchronized (this) {
            before = snapshot;
            mutation.run();
            after = build();
            snapshot = after;
        }
        if (!before.values().equals(after.values()) || !before.overrides().equals(after.overrides())) {
            for (Listener l : listeners) l.changed(before, after);
        }
    }

    /** A snapshot of the current state. Callers hold this (or are the constructor). */
    private ParameterSnapshot build() {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> overrideTexts = new LinkedHashMap<>();
        for (Param<?> p : Params.ALL) {
            Object v = overrides.containsKey(p.name()) ? overrides.get(p.name()) : defaultValue(p);
            values.put(p.name(), v);
            if (overrides.containsKey(p.name())) overrideTexts.put(p.name(), p.format(v));
        }
        return new ParameterSnapshot(values, overrideTexts);
    }
}
