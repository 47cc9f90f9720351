package io.stillwater.bench.targets;

import java.util.Map;

/**
 * Starts an in-process Stillwater engine with its wire server for the bench's {@code embedded}
 * target. Implemented by the cli module (which depends on engine and pgwire, so the bench never
 * does) and found through {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/io.stillwater.bench.target.EmbeddedEngineFactory}.
 */
public interface EmbeddedEngineFactory {

    /**
     * Starts a fresh, empty engine (data in a new temp dir) and a wire server on a loopback port.
     *
     * @param systemParameterDefaults applied as the engine's system parameter defaults before any
     *     replica is provisioned
     * @throws java.sql.SQLException a parameter the engine does not know (42704) or a value it
     *     rejects (22023), with the engine's message: never ignored, because an A/B run whose
     *     parameter silently did nothing compares a build with itself
     */
    EmbeddedEngine start(Map<String, String> systemParameterDefaults) throws Exception;

    /** A running embedded engine and server. */
    interface EmbeddedEngine extends AutoCloseable {
        /**
         * e.g. {@code jdbc:postgresql://127.0.0.1:41234/materialize}; names another port after
         * {@link #restart()}.
         */
        String jdbcUrl();

        /** The user ordinary actions connect as. */
        String user();

        /**
         * The parameter defaults the engine was started with, by name, each value in the engine's
         * canonical text (what {@code SHOW name} prints): the launcher reads them back to prove they
         * arrived.
         */
        default Map<String, String> systemParameterDefaults() {
            return Map.of();
        }

        /**
         * Stops the server and the engine gracefully and opens them again on the same data directory
         * with the same parameter defaults; returns once the new server accepts connections (it
         * listens on a new port: read {@link #jdbcUrl()} again). Called by the thread running the
         * scenario, never concurrently with other calls.
         *
         * @throws UnsupportedOperationException an implementation that cannot restart
         */
        default void restart() throws Exception {
            throw new UnsupportedOperationException("this embedded engine cannot be restarted");
        }

        /** Stops the server and the engine and deletes the data directory. */
        @Override
        void close();
    }
}
