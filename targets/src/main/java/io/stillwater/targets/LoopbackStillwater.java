package io.stillwater.targets;

/**
 * A Stillwater server launched on this machine, in this JVM or a child: it listens on 127.0.0.1
 * (port chosen at start, new after a restart) and ordinary work connects to database and user
 * {@code materialize}, as on every Stillwater server.
 */
public interface LoopbackStillwater extends RunningServer {

    /** The port the server listens on now. */
    int port();

    @Override
    default String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/materialize";
    }

    @Override
    default String user() {
        return "materialize";
    }
}
