package io.stillwater.targets;

import java.sql.SQLException;
import java.util.Map;

/**
 * An in-process Stillwater engine with its wire server on a loopback port, started by an
 * {@link EmbeddedServerFactory}; always {@link #restartable()} (same data directory, same
 * parameter defaults, a new port) and {@link #inProcess()}. {@link #close()} stops the server,
 * then the engine, and deletes the data directory.
 */
public interface EmbeddedServer extends RunningServer {

    /**
     * The parameter defaults the engine was started with, by name, each value in the engine's
     * canonical text (what {@code SHOW name} prints), so a caller can read them back and compare.
     */
    Map<String, String> systemParameterDefaults();

    @Override
    default boolean restartable() {
        return true;
    }

    @Override
    default boolean inProcess() {
        return true;
    }

    /** Stops server and engine (the engine syncs its log) and opens both again on the same data directory. */
    @Override
    void restart() throws SQLException;
}
