package io.stillwater.pgwire.embedded;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import io.stillwater.pgwire.PgServer;
import io.stillwater.pgwire.auth.AuthMethod;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.LoopbackStillwater;
import io.stillwater.targets.TempDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * The one in-process Stillwater target: a real engine in a fresh temporary data directory plus a
 * real wire server on an ephemeral loopback port. Everything outside this module reaches it through
 * pgjdbc only (slt, the benches and measurements via {@link EmbeddedStillwaterFactory}; pgwire's and
 * the CLI's tests directly). fsync stays on unless asked otherwise: the embedded engine is the real one.
 *
 * <p>System parameter defaults are validated against the engine's registry (an unknown name is
 * 42704, a bad value 22023, with the engine's own message) and handed to the engine before it
 * opens, so they are in place before any replica is provisioned; {@link #systemParameterDefaults()}
 * gives their canonical text.
 *
 * <p>{@link #restart()} replaces engine and server (same data directory, same settings, a new port),
 * so those fields change; like every launched target it is used by one owning thread (a test, or the
 * thread running a scenario), the only one that calls its methods.
 */
public final class EmbeddedStillwater implements EmbeddedServer, LoopbackStillwater {
    private final Path dataDir;
    private final EngineConfig config;
    /** The wire server's authentication for an opened engine (trust over the engine's roles unless asked otherwise). */
    private final Function<Engine, Authentication> authentication;
    private Engine engine;
    private PgServer server;

    /** One maintenance worker per replica, fsync on, no parameter defaults. */
    public EmbeddedStillwater() {
        this(1);
    }

    /** {@code workers} maintenance worker threads per replica (issue 4's tests run with 2). */
    public EmbeddedStillwater(int workers) {
        this(newDataDir(), workers, true, Map.of(), EmbeddedStillwater::trustOnLoopback);
    }

    /**
     * One worker, fsync on, and a wire server that authenticates with {@code authentication}
     * of the opened engine, e.g. {@code e -> Authentication.of(AuthMethod.SCRAM_SHA_256, e.roles())}
     * (called again on {@link #restart()}).
     */
    public static EmbeddedStillwater withAuthentication(Function<Engine, Authentication> authentication) {
        return new EmbeddedStillwater(newDataDir(), 1, true, Map.of(), authentication);
    }

    /** What serve does by default: trust on loopback, roles from the engine's directory (LOGIN still checked). */
    private static Authentication trustOnLoopback(Engine e) {
        return Authentication.of(AuthMethod.TRUST, e.roles());
    }

    private EmbeddedStillwater(Path dataDir, int workers, boolean fsync, Map<String, String> canonicalDefaults,
                               Function<Engine, Authentication> authentication) {
        this.dataDir = dataDir;
        this.authentication = authentication;
        this.config = new EngineConfig(dataDir, fsync, workers).withSystemParameterDefaults(canonicalDefaults);
        try {
            open();
        } catch (RuntimeException e) {
            TempDirectories.deleteRecursively(dataDir);
            throw e;
        }
    }

    /**
     * Starts an engine with {@code workers} maintenance workers per replica, fsync as given, and
     * {@code systemParameterDefaults} as its startup defaults (what {@code serve
     * --system-parameter-default} sets).
     *
     * @throws SQLException an unknown parameter (42704), a rejected value (22023) or an engine that
     *     cannot open, with the engine's SQLSTATE and message
     */
    public static EmbeddedStillwater start(int workers, boolean fsync, Map<String, String> systemParameterDefaults)
            throws SQLException, IOException {
        Map<String, String> canonical = canonical(systemParameterDefaults);
        Path dir = Files.createTempDirectory("stillwater-embedded");
        try {
            return new EmbeddedStillwater(dir, workers, fsync, canonical, EmbeddedStillwater::trustOnLoopback);
        } catch (SqlException e) {
            throw asSqlException(e);
        }
    }

    /** Opens the engine on {@link #dataDir} and starts a server for it on an ephemeral loopback port. */
    private void open() {
        Engine e = Engine.open(config);
        try {
            server = new PgServer(e::connect, PgServer.Limits.DEFAULTS, authentication.apply(e)).start("127.0.0.1", 0);
        } catch (RuntimeException ex) {
            e.close();
            throw ex;
        }
        engine = e;
    }

    @Override
    public Map<String, String> systemParameterDefaults() {
        return config.systemParameterDefaults();
    }

    @Override
    public int port() {
        return server.boundPort();
    }

    /** The running wire server (for its buffer and connection gauges). */
    public PgServer server() {
        return server;
    }

    /** The running engine. */
    public Engine engine() {
        return engine;
    }

    /** A connection whose prepared statements are server-side and use binary transfer from the first run. */
    public Connection connectBinary() throws SQLException {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "-1");
        p.setProperty("binaryTransfer", "true");
        return connect(p);
    }

    /** Stops server and engine cleanly and starts them again on the same data directory. */
    @Override
    public void restart() throws SQLException {
        stop();
        try {
            open();
        } catch (SqlException e) {
            throw asSqlException(e);
        }
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

    /** Stops server and engine and deletes the data directory; idempotent. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            TempDirectories.deleteRecursively(dataDir);
        }
    }

    private static Path newDataDir() {
        try {
            return Files.createTempDirectory("stillwater-embedded");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
        return Collections.unmodifiableMap(out);
    }

    /** The engine's error as the tools report every SQL error: SQLSTATE, message, detail. */
    private static SQLException asSqlException(SqlException e) {
        String text = e.getMessage() + (e.detail() == null ? "" : " (" + e.detail().replaceAll("\\.$", "") + ")");
        return new SQLException(text, e.state().code(), e);
    }
}
