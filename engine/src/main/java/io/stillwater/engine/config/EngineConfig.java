package io.stillwater.engine.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How to open an {@code Engine}.
 *
 * @param dataDir  directory holding the write-ahead log and catalog; created if missing
 * @param fsync    fsync the log before acknowledging a write (turn off only in tests that
 *                 do not test durability)
 * @param workers  maintenance worker threads per replica
 * @param systemParameterDefaults system parameter defaults of this process ({@code name ->
 *                 value text}, e.g. from {@link io.stillwater.engine.params.StartupDefaults#parse});
 *                 not persisted; {@code ALTER SYSTEM} overrides win over them. Validated
 *                 when the engine opens (42704 / 22023).
 */
public record EngineConfig(Path dataDir, boolean fsync, int workers, Map<String, String> systemParameterDefaults) {
    public EngineConfig {
        systemParameterDefaults = Collections.unmodifiableMap(new LinkedHashMap<>(systemParameterDefaults));
    }

    /** Without system parameter defaults. */
    public EngineConfig(Path dataDir, boolean fsync, int workers) { this(dataDir, fsync, workers, Map.of()); }

    public static EngineConfig at(Path dataDir) { return new EngineConfig(dataDir, true, 1); }

    /** This configuration with {@code defaults} as the system parameter defaults. */
    public EngineConfig withSystemParameterDefaults(Map<String, String> defaults) {
        return new EngineConfig(dataDir, fsync, workers, defaults);
    }
}
