package io.stillwater.cli.measure;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/**
 * The engine under measurement: the one embedded target ({@link EmbeddedStillwater}: a fresh engine
 * in a temporary data directory plus a wire server on an ephemeral loopback port) with the
 * measurement's worker count and fsync setting. Measurements reach it only through pgjdbc, as a
 * user would; close() stops the server, then the engine, then deletes the directory.
 */
final class MeasuredServer implements AutoCloseable {
    private final EmbeddedStillwater embedded;

    private MeasuredServer(EmbeddedStillwater embedded) {
        this.embedded = embedded;
    }

    static MeasuredServer start(int workers, boolean fsync) throws IOException, SQLException {
        return start(workers, fsync, Map.of());
    }

    /**
     * As {@link #start(int, boolean)}, with {@code systemParameterDefaults} as this engine's
     * startup defaults (what {@code serve --system-parameter-default} sets), so replicas
     * provisioned from the start already see them.
     */
    static MeasuredServer start(int workers, boolean fsync, Map<String, String> systemParameterDefaults)
            throws IOException, SQLException {
        return new MeasuredServer(EmbeddedStillwater.start(workers, fsync, systemParameterDefaults));
    }

    String jdbcUrl() {
        return embedded.jdbcUrl();
    }

    /** A new connection as user materialize; prepared statements go server-side from their first use. */
    Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "1");
        return embedded.connect(p);
    }

    @Override
    public void close() {
        embedded.close();
    }
}
