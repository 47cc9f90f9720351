package io.stillwater.pgwire.it;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.pgwire.PgServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A real engine plus a real wire server on an ephemeral loopback port, in a temp data
 * directory; tests talk to it with pgjdbc exactly as users do.
 */
public final class EmbeddedStillwater implements AutoCloseable {
    private final Path dataDir;
    private final int workers;
    private Engine engine;
    private PgServer server;

    /** One maintenance worker per replica. */
    public EmbeddedStillwater() {
        this(1);
    }

    /** {@code workers} maintenance worker threads per replica (issue 4's tests run with 2). */
    public EmbeddedStillwater(int workers) {
        this.workers = workers;
        try {
            dataDir = Files.createTempDirectory("stillwater-it");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
    }

    private void start() {
        engine = Engine.open(new EngineConfig(dataDir, true, workers));
        server = new PgServer(engine::connect).start("127.0.0.1", 0);
    }

    /** Stops server and engine cleanly and starts them again on the same data directory. */
    public void restart() {
        server.close();
        engine.close();
        start();
    }

    public int port() { return server.boundPort(); }

    /** The running wire server (for its buffer and connection gauges). */
    public PgServer server() { return server; }

    /** The running engine. */
    public io.stillwater.engine.Engine engine() { return engine; }

    public String url() { return "jdbc:postgresql://127.0.0.1:" + port() + "/materialize"; }

    public Connection connect() throws SQLException { return connect(new Properties()); }

    public Connection connect(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "materialize");
        p.putAll(extra);
        return DriverManager.getConnection(url(), p);
    }

    /** A connection whose prepared statements are server-side and use binary transfer from the first run. */
    public Connection connectBinary() throws SQLException {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "-1");
        p.setProperty("binaryTransfer", "true");
        return connect(p);
    }

    @Override
    public void close() {
        server.close();
        engine.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: temp directory
        }
    }
}
