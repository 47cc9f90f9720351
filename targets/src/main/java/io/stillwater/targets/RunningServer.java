package io.stillwater.targets;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The one notion of a target at this level: a running server reachable through pgjdbc at
 * {@link #jdbcUrl()} as {@link #user()}, which {@link #close()} stops (and frees whatever it
 * started). A server launched here (an {@link EmbeddedServer}, a {@link ServeProcess}) can be
 * {@link #restart() restarted} on the same data; an existing server cannot. slt builds its
 * per-file targets on it, the bench its launched targets (capabilities, parameter read-back).
 *
 * <p>Used by one thread at a time (the one running the file or scenario): {@link #restart()} may
 * change the port, so read {@link #jdbcUrl()} again after it.
 */
public interface RunningServer extends AutoCloseable {

    /** e.g. {@code jdbc:postgresql://127.0.0.1:41234/materialize}; without credentials. */
    String jdbcUrl();

    /** The user ordinary work connects as. */
    String user();

    /** "" when the server asks for none (trust authentication). */
    default String password() {
        return "";
    }

    /** Whether {@link #restart()} works: this process launched the server, so it can stop and start it. */
    default boolean restartable() {
        return false;
    }

    /**
     * Stops the server gracefully and starts it again on the same data directory with the same
     * settings; returns once it accepts connections.
     *
     * @throws UnsupportedOperationException when not {@link #restartable()}
     */
    default void restart() throws Exception {
        throw new UnsupportedOperationException(jdbcUrl() + " was not launched here and cannot be restarted");
    }

    /** The operating-system process serving it, when one was launched for it. */
    default OptionalLong processId() {
        return OptionalLong.empty();
    }

    /** Whether the server runs inside this JVM. */
    default boolean inProcess() {
        return false;
    }

    /** A new connection as {@link #user()}. */
    default Connection connect() throws SQLException {
        return connect(new Properties());
    }

    /** A new connection as {@link #user()} with {@code extra} pgjdbc properties (which may name another user). */
    default Connection connect(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user());
        if (!password().isEmpty()) {
            p.setProperty("password", password());
        }
        p.putAll(extra);
        return DriverManager.getConnection(jdbcUrl(), p);
    }

    /** Stops the server (if launched here) and deletes what it created; idempotent. */
    @Override
    void close();
}
