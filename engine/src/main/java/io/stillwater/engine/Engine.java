package io.stillwater.engine;

import io.stillwater.engine.session.Session;
import java.util.Map;

/**
 * The database: opened on a data directory, it recovers the catalog and tables from the
 * log and then serves {@link Session}s. Thread-safe.
 */
public final class Engine implements AutoCloseable {
    private final EngineConfig config;

    private Engine(EngineConfig config) { this.config = config; }

    /** Opens (recovering, if the directory holds data) the engine at {@code config.dataDir()}. */
    public static Engine open(EngineConfig config) {
        return new Engine(config);
    }

    /** A new session for {@code user} on {@code database}; {@code options} are startup parameters. */
    public Session connect(String user, String database, Map<String, String> options) {
        throw new UnsupportedOperationException("sessions are being written");
    }

    public EngineConfig config() { return config; }

    @Override
    public void close() {}
}
