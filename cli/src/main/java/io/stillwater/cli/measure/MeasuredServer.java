package io.stillwater.cli.measure;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.pgwire.PgServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The engine under measurement: a fresh engine in a temporary data directory plus a wire
 * server on an ephemeral loopback port. Measurements reach it only through pgjdbc, as a
 * user would; nothing here touches engine internals after start. close() stops the server,
 * then the engine, then deletes the directory.
 */
final class MeasuredServer implements AutoCloseable {
    private final Path dataDir;
    private final Engine engine;
    private final PgServer server;

    private MeasuredServer(Path dataDir, Engine engine, PgServer server) {
        this.dataDir = dataDir;
        this.engine = engine;
        this.server = server;
    }

    static MeasuredServer start(int workers, boolean fsync) throws IOException {
        return start(workers, fsync, Map.of());
    }

    /**
     * As {@link #start(int, boolean)}, with {@code systemParameterDefaults} as this engine's
     * startup defaults (what {@code serve --system-parameter-default} sets), so replicas
     * provisioned from the start already see them.
     */
    static MeasuredServer start(int workers, boolean fsync, Map<String, String> systemParameterDefaults) throws IOException {
        Path dir = Files.createTempDirectory("stillwater-measure");
        Engine engine = Engine.open(new EngineConfig(dir, fsync, workers).withSystemParameterDefaults(systemParameterDefaults));
        try {
            return new MeasuredServer(dir, engine, new PgServer(engine::connect).start("127.0.0.1", 0));
        } catch (RuntimeException e) {
            engine.close();
            deleteRecursively(dir);
            throw e;
        }
    }

    String jdbcUrl() { return "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize"; }

    /** A new connection as user materialize; prepared statements go server-side from their first use. */
    Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "materialize");
        p.setProperty("prepareThreshold", "1");
        return DriverManager.getConnection(jdbcUrl(), p);
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            engine.close();
            deleteRecursively(dataDir);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; leftovers are harmless
        }
    }
}
