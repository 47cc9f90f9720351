package io.stillwater.cli;

import io.stillwater.bench.targets.EmbeddedEngineFactory;
import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.pgwire.PgServer;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import java.io.IOException;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The bench's {@code embedded} target: a fresh engine in a temporary data directory plus a wire
 * server on an ephemeral loopback port, per scenario run. The bench reaches it through pgjdbc
 * only, so it never depends on engine classes. fsync stays on: the embedded engine is the real one.
 *
 * <p>System parameter defaults: the side's parameters are validated against the engine's registry
 * (an unknown name is 42704, a bad value 22023, with the engine's own message) and handed to the
 * engine as {@link EngineConfig#withSystemParameterDefaults} before it opens, so they are in place
 * before any replica is provisioned. The canonical values are what the bench then reads back with
 * {@code SHOW} to prove they arrived.
 */
public final class EmbeddedBenchFactory implements EmbeddedEngineFactory {
    @Override
    public EmbeddedEngine start(Map<String, String> systemParameterDefaults) throws IOException, SQLException {
        Map<String, String> canonical = canonical(systemParameterDefaults);
        Path dir = Files.createTempDirectory("stillwater-bench-embedded");
        try {
            return new Running(dir, canonical);
        } catch (SQLException | RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
    }

    /**
     * One embedded engine and its server. {@link #restart()} replaces both (same data directory, same
     * parameter defaults, a new port), so the fields change; like every launched target it is used by
     * the one thread running the scenario, which is the only one that calls its methods.
     */
    private static final class Running implements EmbeddedEngine {
        private final Path dir;
        private final Map<String, String> canonical;
        private Engine engine;
        private PgServer server;

        Running(Path dir, Map<String, String> canonical) throws SQLException {
            this.dir = dir;
            this.canonical = canonical;
            open();
        }

        /** Opens the engine on {@link #dir} and starts a server for it on an ephemeral loopback port. */
        private void open() throws SQLException {
            Engine e;
            try {
                e = Engine.open(new EngineConfig(dir, true, 1).withSystemParameterDefaults(canonical));
            } catch (SqlException ex) {
                throw asSqlException(ex);
            }
            try {
                server = new PgServer(e::connect).start("127.0.0.1", 0);
            } catch (RuntimeException ex) {
                e.close();
                throw ex;
            }
            engine = e;
        }

        @Override
        public String jdbcUrl() {
            return "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize";
        }

        @Override
        public String user() {
            return "materialize";
        }

        @Override
        public Map<String, String> systemParameterDefaults() {
            return canonical;
        }

        @Override
        public void restart() throws SQLException {
            stop();
            open();
        }

        /** Closes the server, then the engine (which syncs and closes its log); keeps the data. */
        private void stop() {
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                server = null;
                if (engine != null) {
                    engine.close();
                }
                engine = null;
            }
        }

        @Override
        public void close() {
            try {
                stop();
            } finally {
                deleteRecursively(dir);
            }
        }
    }

    /** name -> the engine's canonical text of the value, in the order given; the engine's error otherwise. */
    private static Map<String, String> canonical(Map<String, String> requested) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            requested.forEach((name, value) -> {
                Param<?> p = Params.require(name);
                out.put(p.name(), p.format(p.parse(value)));
            });
        } catch (SqlException e) {
            throw asSqlException(e);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** The engine's error as the bench reports every SQL error: SQLSTATE, message, detail. */
    private static SQLException asSqlException(SqlException e) {
        String text = e.getMessage() + (e.detail() == null ? "" : " (" + e.detail().replaceAll("\\.$", "") + ")");
        return new SQLException(text, e.state().code(), e);
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; leftovers are harmless
        }
    }
}
