package io.stillwater.cli;

import io.stillwater.engine.Engine;
import io.stillwater.engine.EngineConfig;
import io.stillwater.pgwire.PgServer;
import java.io.UncheckedIOException;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.StartupDefaults;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code stillwater serve}: opens the engine on a data directory and serves pgwire until SIGTERM/SIGINT. */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {
                "Open the database in --data-dir and serve it over the PostgreSQL wire protocol.",
                "Connect with any PostgreSQL client, e.g. psql -h 127.0.0.1 -p 6875 -U materialize materialize.",
                "Stops cleanly on SIGTERM or Ctrl-C: the server closes first, then the engine."})
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Option(names = "--listen", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}). Use 0.0.0.0 to accept remote clients; "
                    + "authentication is trust, so only do that on a trusted network.")
    String listen;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "6875",
            description = "TCP port to listen on (default: ${DEFAULT-VALUE}); 0 picks a free port.")
    int port;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "./data",
            description = "Directory holding the write-ahead log and catalog; created if missing (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--no-fsync",
            description = "Do not fsync the write-ahead log before acknowledging writes. FOR TESTS ONLY: "
                    + "a crash or power loss can lose acknowledged data.")
    boolean noFsync;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "1",
            description = "Maintenance worker threads of the default cluster's replica (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--system-parameter-default", paramLabel = "NAME=VALUE[;NAME=VALUE...]",
            converter = SystemParameterDefaultsConverter.class,
            description = "Default of system parameters for this process, e.g. "
                    + "'enable_compute_interactive_runtime=off;max_result_size=100MB'. Repeatable; later values win. "
                    + "Not persisted; ALTER SYSTEM SET (as mz_system) overrides it.")
    List<Map<String, String>> systemParameterDefaults = new ArrayList<>();

    /** Parses and validates one {@code --system-parameter-default} value (bad ones are usage errors, exit 2). */
    static final class SystemParameterDefaultsConverter implements CommandLine.ITypeConverter<Map<String, String>> {
        @Override
        public Map<String, String> convert(String value) {
            try {
                return StartupDefaults.parse(value);
            } catch (SqlException e) {
                StringBuilder msg = new StringBuilder(e.getMessage());
                if (e.detail() != null) msg.append(": ").append(e.detail().replaceAll("\\.$", ""));
                msg.append('.');
                if (e.hint() != null) msg.append(' ').append(e.hint());
                throw new CommandLine.TypeConversionException(msg.toString());
            }
        }
    }

    /** Every --system-parameter-default merged, later ones winning. */
    Map<String, String> mergedSystemParameterDefaults() {
        Map<String, String> merged = new LinkedHashMap<>();
        for (Map<String, String> m : systemParameterDefaults) {
            m.forEach((k, v) -> {
                merged.remove(k);
                merged.put(k, v);
            });
        }
        return merged;
    }

    /** A started engine and server; close() stops the server, then the engine. */
    record Running(Engine engine, PgServer server) implements AutoCloseable {
        int port() { return server.boundPort(); }

        @Override
        public void close() {
            try {
                server.close();
            } finally {
                engine.close();
            }
        }
    }

    Running start() {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
        if (workers < 1 || workers > 64) throw new IllegalArgumentException("--workers must be between 1 and 64, got " + workers);
        if (noFsync) LOG.warn("--no-fsync: the write-ahead log is not fsynced; acknowledged writes can be lost on a crash");
        Engine engine = Engine.open(new EngineConfig(dataDir, !noFsync, workers, mergedSystemParameterDefaults()));
        try {
            PgServer server = new PgServer(engine::connect).start(listen, port);
            LOG.info("listening on {}:{}", server.boundAddress().getAddress().getHostAddress(), server.boundPort());
            return new Running(engine, server);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        Running running;
        try {
            running = start();
        } catch (UncheckedIOException | IllegalArgumentException e) {
            System.err.println("stillwater serve: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutting down");
            try {
                running.close();
            } finally {
                stopped.countDown();
            }
        }, "stillwater-shutdown"));
        stopped.await(); // the JVM exits through the shutdown hook
        return 0;
    }
}
