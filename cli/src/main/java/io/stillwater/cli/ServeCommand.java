package io.stillwater.cli;

import java.lang.management.ManagementFactory;
import java.util.function.IntConsumer;
import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.auth.ScramVerifier;
import io.stillwater.pgwire.PgServer;
import io.stillwater.pgwire.Transport;
import io.stillwater.pgwire.tls.ServerTls;
import io.stillwater.pgwire.auth.AuthMethod;
import io.stillwater.pgwire.auth.Authentication;
import java.io.UncheckedIOException;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.ParamType;
import io.stillwater.engine.params.StartupDefaults;
import io.stillwater.engine.storage.LogCut;
import io.stillwater.engine.storage.LogDamageException;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stillwater serve}: opens the engine on a data directory and serves pgwire until SIGTERM/SIGINT. */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {
                "Open the database in --data-dir and serve it over the PostgreSQL wire protocol.",
                "Connect with any PostgreSQL client, e.g. psql -h 127.0.0.1 -p 6875 -U materialize materialize.",
                "Stops cleanly on SIGTERM or Ctrl-C: the server closes first, then the engine.",
                "Exits with status " + ServeCommand.EXIT_ENGINE_STOPPED + " when a committed write cannot be applied, "
                        + "and (run by ./stillwater, with -XX:+ExitOnOutOfMemoryError) with status 3 when the heap is "
                        + "exhausted: a supervisor restarts it and recovery replays the log (docs/operations.md)."})
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    /**
     * Exit status when the engine stopped because a committed write could not be applied
     * (memory would be behind the log): restart to recover from the log. 70 is sysexits'
     * EX_SOFTWARE. (A JVM started with -XX:+ExitOnOutOfMemoryError exits with 3 on heap
     * exhaustion.)
     */
    static final int EXIT_ENGINE_STOPPED = 70;

    /**
     * Exit status when the write-ahead log is damaged other than by a torn final write and
     * startup is refused (65 is sysexits' EX_DATAERR). The one ERROR line names the file,
     * the offset and {@code --recover-truncate-at}.
     */
    static final int EXIT_DAMAGED_LOG = 65;

    /** JVM flags that make a real heap exhaustion end the process (what ./stillwater passes to serve). */
    static final List<String> OOM_EXIT_FLAGS = List.of("-XX:+ExitOnOutOfMemoryError", "-XX:+CrashOnOutOfMemoryError");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** How the process exits when the engine stops; replaced in tests. Runs on its own thread. */
    IntConsumer exit = System::exit;

    @Option(names = "--listen", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}). A non-loopback address (e.g. 0.0.0.0) "
                    + "needs --auth scram-sha-256 (or password) and TLS required, or --allow-insecure-remote.")
    String listen;

    // ---- Authentication (docs/security.md) ----

    @Option(names = "--auth", paramLabel = "METHOD", defaultValue = "trust", converter = AuthMethodConverter.class,
            description = "How clients authenticate: trust (anyone is who they say; loopback only), scram-sha-256 "
                    + "(password, never sent in clear) or password (clear text, TLS required). Default: ${DEFAULT-VALUE}.")
    AuthMethod auth;

    @Option(names = "--allow-insecure-remote",
            description = "Start even when listening on a non-loopback address without password authentication and "
                    + "required TLS; logs a warning. Only on a network you trust.")
    boolean allowInsecureRemote;

    @Option(names = "--bootstrap-superuser-password-file", paramLabel = "FILE",
            description = "At startup, if mz_system has no password yet, set it to the first line of FILE (as initdb "
                    + "--pwfile). Only its SCRAM-SHA-256 verifier is stored.")
    Path bootstrapSuperuserPasswordFile;

    /** {@code --auth}: a pg_hba method name. */
    static final class AuthMethodConverter implements CommandLine.ITypeConverter<AuthMethod> {
        @Override
        public AuthMethod convert(String value) {
            try {
                return AuthMethod.fromHbaName(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }


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

    @Option(names = "--recover-truncate-at", paramLabel = "SEGMENT:OFFSET",
            converter = CutPointConverter.class,
            description = "Before starting, cut the write-ahead log at this frame boundary of this segment file, as the "
                    + "startup error for a damaged log names it (e.g. wal-00000000000000000003.log:4096). The bytes from "
                    + "there on and every later segment are moved (not deleted) into <data-dir>/recovered-<time>/, and "
                    + "the number of intact records discarded is logged. Records after the cut are lost, acknowledged "
                    + "or not: use it only when restoring a backup is not an option (docs/operations.md).")
    LogCut.CutPoint recoverTruncateAt;

    /** {@code --recover-truncate-at}: {@code <segment file>:<byte offset>}. */
    static final class CutPointConverter implements CommandLine.ITypeConverter<LogCut.CutPoint> {
        @Override
        public LogCut.CutPoint convert(String value) {
            try {
                return LogCut.CutPoint.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    // ---- Connections and limits of the wire server (docs/operations.md) ----

    @Option(names = "--max-message-size", paramLabel = "SIZE", defaultValue = "16MB",
            converter = MessageSizeConverter.class,
            description = "Largest message a client may send, e.g. a query text or a Bind with its parameters "
                    + "(default: ${DEFAULT-VALUE}; units B, kB, MB, GB). A larger one is refused from its header with "
                    + "FATAL 08P01 before any of it is buffered.")
    int maxMessageSize;

    @Option(names = "--max-buffered-input", paramLabel = "SIZE", defaultValue = "256MB",
            converter = BufferedInputConverter.class,
            description = "Most bytes held for client messages that have not fully arrived, over all connections "
                    + "(default: ${DEFAULT-VALUE}); at least --max-message-size. A connection that would pass it is "
                    + "refused with FATAL 53200; the others are unaffected.")
    long maxBufferedInput;

    @Option(names = "--max-starting-connections", paramLabel = "N", defaultValue = "256",
            description = "Most connections that may be in startup at once (accepted, no session yet; default: "
                    + "${DEFAULT-VALUE}). Past it a new socket is refused with FATAL 53300 before it gets a thread. "
                    + "Sessions are limited by the system parameters max_connections and "
                    + "superuser_reserved_connections.")
    int maxStartingConnections;

    @Option(names = "--inline-reads", paramLabel = "BOOL", defaultValue = "true", arity = "1",
            description = "Answer prepared point reads (fast-path lookups that need no waiting) on the network event "
                    + "loop, without a hand-off to the connection's thread (default: ${DEFAULT-VALUE}). "
                    + "Every other statement runs on the connection's thread either way.")
    boolean inlineReads;

    @Option(names = "--transport", paramLabel = "auto|nio|epoll", defaultValue = "auto",
            converter = TransportConverter.class,
            description = "Socket I/O: epoll (Netty's native transport, Linux x86-64), nio (Java NIO), or auto "
                    + "(epoll where it loads, else nio; default). The one in use is logged at startup.")
    Transport transport;

    /** {@code --transport}: auto, nio or epoll, any case. */
    static final class TransportConverter implements picocli.CommandLine.ITypeConverter<Transport> {
        @Override
        public Transport convert(String value) {
            try {
                return Transport.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("expected auto, nio or epoll, got '" + value + "'");
            }
        }
    }

    @Mixin
    TlsOptions tls = new TlsOptions();

    /** {@code --max-message-size}: a byte size from 1kB to 1GB (PostgreSQL's own maximum message). */
    static final class MessageSizeConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) byteSize(value, 1024, 1L << 30);
        }
    }

    /** {@code --max-buffered-input}: a byte size from 1kB to 1TB. */
    static final class BufferedInputConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return byteSize(value, 1024, 1L << 40);
        }
    }

    private static long byteSize(String value, long min, long max) {
        ParamType.ByteSizeType type = new ParamType.ByteSizeType(min, max);
        try {
            return type.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage() + ". " + type.accepted());
        }
    }

    /** The wire server's limits from the flags; throws IllegalArgumentException when they do not fit together. */
    PgServer.Limits serverLimits() {
        if (maxStartingConnections < 1) {
            throw new IllegalArgumentException("--max-starting-connections must be at least 1, got " + maxStartingConnections);
        }
        if (maxBufferedInput < maxMessageSize) {
            throw new IllegalArgumentException("--max-buffered-input (" + maxBufferedInput
                    + " bytes) must be at least --max-message-size (" + maxMessageSize + " bytes)");
        }
        return new PgServer.Limits(maxMessageSize, maxBufferedInput, maxStartingConnections);
    }

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
        PgServer.Limits limits = serverLimits();
        ServerTls serverTls = tls.load(); // before the engine opens: a bad certificate changes nothing on disk
        switch (ListeningRules.check(listen, auth, serverTls != null && serverTls.required(), allowInsecureRemote)) {
            case ListeningRules.Verdict.Refused r -> throw new IllegalArgumentException(r.reason());
            case ListeningRules.Verdict.Insecure i -> LOG.warn(i.warning());
            case ListeningRules.Verdict.Allowed a -> { }
        }
        ScramVerifier bootstrapPassword = bootstrapSuperuserPasswordFile == null ? null
                : SuperuserBootstrap.readPasswordFile(bootstrapSuperuserPasswordFile);
        if (noFsync) LOG.warn("--no-fsync: the write-ahead log is not fsynced; acknowledged writes can be lost on a crash");
        logOutOfMemoryPolicy(ManagementFactory.getRuntimeMXBean().getInputArguments());
        if (recoverTruncateAt != null) LOG.warn("{}", LogCut.cut(dataDir, recoverTruncateAt, !noFsync).describe());
        Engine engine = Engine.open(new EngineConfig(dataDir, !noFsync, workers, mergedSystemParameterDefaults()));
        // A committed write memory cannot apply: exit, so a supervisor restarts the process
        // and recovery replays the log (the handler runs on a thread of its own).
        engine.coordinator().onStopped(e -> {
            LOG.error("{}; exiting with status {} so that a restart recovers from the log", e.getMessage(),
                    EXIT_ENGINE_STOPPED);
            exit.accept(EXIT_ENGINE_STOPPED);
        });
        try {
            SuperuserBootstrap.apply(engine, bootstrapPassword, auth);
            Authentication authentication = Authentication.of(auth, engine.roles())
                    .withMockSecret(MockAuthSecret.loadOrCreate(dataDir));
            PgServer server = new PgServer(engine::connect, limits, authentication).withTls(serverTls)
                    .withInlineReads(inlineReads).withTransport(transport).start(listen, port);
            if (transport == Transport.AUTO && server.transport() == Transport.NIO) {
                LOG.info("network transport: nio (native epoll unavailable: {})", Transport.epollUnavailability());
            }
            LOG.info("listening on {}:{} (--auth {}{}, --transport {})", server.boundAddress().getAddress().getHostAddress(),
                    server.boundPort(), auth, serverTls == null ? "" : ", TLS " + (serverTls.required() ? "required" : "allowed"),
                    server.transport().name().toLowerCase(java.util.Locale.ROOT));
            return new Running(engine, server);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /**
     * Logs what happens on heap exhaustion: with -XX:+ExitOnOutOfMemoryError (what
     * ./stillwater passes) the JVM exits and a supervisor restarts it cleanly from the log;
     * without it an OutOfMemoryError leaves the process running in an unknown state.
     * Returns whether the flag (or -XX:+CrashOnOutOfMemoryError) is set.
     */
    static boolean logOutOfMemoryPolicy(List<String> jvmArguments) {
        boolean exits = jvmArguments.stream().anyMatch(OOM_EXIT_FLAGS::contains);
        if (exits) {
            LOG.info("on heap exhaustion the process exits (-XX:+ExitOnOutOfMemoryError, status 3); run it under a "
                    + "supervisor that restarts it");
        } else {
            LOG.warn("the JVM runs without -XX:+ExitOnOutOfMemoryError: after an OutOfMemoryError it would keep running "
                    + "in an unknown state; start serve with ./stillwater, or add the flag to the java command line");
        }
        return exits;
    }

    @Override
    public Integer call() throws InterruptedException {
        Running running;
        try {
            running = start();
        } catch (UncheckedIOException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("stillwater serve: " + e.getMessage());
            return 1;
        } catch (SqlException e) {
            // A damaged log, an unusable data directory, a bad cut point: one line a person
            // can act on, no stack trace.
            LOG.error("{}{}", e.getMessage(), e.hint() == null ? "" : " HINT: " + e.hint());
            return e instanceof LogDamageException ? EXIT_DAMAGED_LOG : 1;
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
