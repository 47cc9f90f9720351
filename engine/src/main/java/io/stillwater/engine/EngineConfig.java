package io.stillwater.engine;

import java.nio.file.Path;

/**
 * How to open an {@link Engine}.
 *
 * @param dataDir  directory holding the write-ahead log and catalog; created if missing
 * @param fsync    fsync the log before acknowledging a write (turn off only in tests that
 *                 do not test durability)
 * @param workers  maintenance worker threads per replica
 */
public record EngineConfig(Path dataDir, boolean fsync, int workers) {
    public static EngineConfig at(Path dataDir) { return new EngineConfig(dataDir, true, 1); }
}
