package io.stillwater.slt;

/**
 * Starts an in-process Stillwater engine with its PostgreSQL wire server, for the default
 * {@code embedded} target. Implemented by the cli module (which depends on engine and pgwire)
 * and found through {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/io.stillwater.slt.EmbeddedTargetFactory}.
 */
public interface EmbeddedTargetFactory {
    /** Starts a fresh, empty engine and wire server. The caller closes it. */
    EmbeddedServer start() throws Exception;

    /** A running embedded server. */
    interface EmbeddedServer extends AutoCloseable {
        /** A pgjdbc URL reaching the server, e.g. {@code jdbc:postgresql://127.0.0.1:41234/materialize}. */
        String jdbcUrl();

        /** The user to connect as when a record names none. */
        String defaultUser();

        /** Stops the server and frees the engine. */
        @Override
        void close();
    }
}
