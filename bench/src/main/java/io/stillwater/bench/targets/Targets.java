package io.stillwater.bench.targets;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.runner.TargetSkipException;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.EmbeddedServerFactory;
import io.stillwater.targets.RunningServer;
import io.stillwater.targets.ServeProcess;
import io.stillwater.targets.TargetSpec;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns a side (target spec plus parameters) into a {@link TargetLauncher}. Every launch probes
 * the running target's capabilities ({@link CapabilityProbe}). Parameters are never dropped: a
 * target that cannot apply them fails (embedded, jar: the engine rejects an unknown parameter) or
 * skips the scenario with the reason (url: no ALTER SYSTEM).
 */
public final class Targets {
    /** How long a launched jar may take to log "listening on". */
    private static final Duration JAR_START_TIMEOUT = Duration.ofSeconds(120);

    private Targets() {
    }

    public static TargetLauncher launcher(TargetSpec spec, SideParams params) {
        return switch (spec) {
            case TargetSpec.Embedded e -> () -> launchEmbedded(params);
            case TargetSpec.Jar j -> () -> launchJar(j.jar(), params);
            case TargetSpec.Url u -> () -> launchUrl(u, params);
        };
    }

    /** Whether an embedded engine factory is on the class path (the bench runs inside the stillwater CLI). */
    public static boolean embeddedAvailable() {
        return EmbeddedServerFactory.discover().isPresent();
    }

    private static TargetLauncher.LaunchedTarget launchEmbedded(SideParams params) throws Exception {
        EmbeddedServerFactory factory = EmbeddedServerFactory.discover()
                .orElseThrow(() -> new IllegalStateException("the embedded target is not available: no "
                        + EmbeddedServerFactory.class.getName() + " on the class path; run the bench as "
                        + "'stillwater bench', or use --this/--other jar:PATH or url:..."));
        EmbeddedServer engine = factory.start(params.values());
        // the engine's canonical spelling when it reports one, else what was asked
        Map<String, String> expected = engine.systemParameterDefaults().isEmpty() ? params.values()
                : engine.systemParameterDefaults();
        return probed(engine, expected, "the embedded engine");
    }

    private static TargetLauncher.LaunchedTarget launchJar(Path jar, SideParams params) throws Exception {
        ServeProcess.Command command = ServeProcess.Command.jar(jar);
        if (!params.isEmpty()) {
            // Only when asked: a build without the flag still serves parameter-free runs.
            command = command.withServeOptions(List.of("--system-parameter-default", params.render()));
        }
        return probed(ServeProcess.startInTempDirectory(command, JAR_START_TIMEOUT), params.values(), jar.toString());
    }

    /**
     * The launched {@code server} as the bench's target: its capabilities probed and the side's
     * parameters read back; on any failure (parameters not applied included) the server is closed,
     * never left running.
     */
    private static TargetLauncher.LaunchedTarget probed(RunningServer server, Map<String, String> expected, String what)
            throws Exception {
        try {
            Set<Capability> caps = CapabilityProbe.probe(server.jdbcUrl(), server.user(), server.password());
            return new LaunchedServer(server, caps, readBack(server.jdbcUrl(), server.password(), expected, what));
        } catch (Exception e) {
            server.close();
            throw e;
        }
    }

    private static Launched launchUrl(TargetSpec.Url u, SideParams params) throws Exception {
        Set<Capability> caps = CapabilityProbe.probe(u.jdbcUrl(), u.user(), u.password());
        if (params.isEmpty()) {
            return new Launched(u.jdbcUrl(), u.user(), u.password(), caps, List.of(), () -> { });
        }
        if (!caps.contains(Capability.SYSTEM_PARAMETERS)) {
            throw new TargetSkipException(u.display() + " cannot apply the side parameters " + params.render()
                    + ": it offers no ALTER SYSTEM as " + CapabilityProbe.ADMIN_USER
                    + " (running without them would compare the wrong configuration)");
        }
        List<String> applied = new ArrayList<>();
        try (Connection c = CapabilityProbe.connect(u.jdbcUrl(), CapabilityProbe.ADMIN_USER, u.password());
                Statement st = c.createStatement()) {
            for (var e : params.values().entrySet()) {
                String sql = "ALTER SYSTEM SET " + e.getKey() + " = '" + e.getValue().replace("'", "''") + "'";
                try {
                    st.execute(sql);
                } catch (SQLException ex) {
                    reset(u, applied);
                    throw new IllegalArgumentException("`" + sql + "` failed: " + SqlErrors.describe(ex), ex);
                }
                applied.add(e.getKey());
            }
        }
        List<String> messages = new ArrayList<>(List.of("applied with ALTER SYSTEM on a shared server (after its "
                + "replicas exist; reset afterwards): " + params.render()));
        try {
            messages.addAll(readBack(u.jdbcUrl(), u.password(), params.values(), u.display()));
        } catch (SQLException | ParametersNotAppliedException e) {
            reset(u, applied);
            throw e;
        }
        return new Launched(u.jdbcUrl(), u.user(), u.password(), caps, messages, () -> reset(u, applied));
    }

    /** Puts a shared server back the way the run found it; best effort. */
    private static void reset(TargetSpec.Url u, List<String> names) {
        if (names.isEmpty()) {
            return;
        }
        try (Connection c = CapabilityProbe.connect(u.jdbcUrl(), CapabilityProbe.ADMIN_USER, u.password());
                Statement st = c.createStatement()) {
            for (String n : names) {
                try {
                    st.execute("ALTER SYSTEM RESET " + n);
                } catch (SQLException ignored) {
                    // keep resetting the others
                }
            }
        } catch (SQLException ignored) {
            // the server went away; nothing to reset
        }
    }

    /**
     * Reads the side's parameters back from the started target; the message that records the
     * effective values, or {@link ParametersNotAppliedException} when one did not arrive.
     */
    private static List<String> readBack(String url, String password, Map<String, String> expected, String what)
            throws SQLException, ParametersNotAppliedException {
        if (expected.isEmpty()) {
            return List.of();
        }
        Map<String, String> effective = ParameterReadBack.effective(url, password, expected.keySet());
        List<String> wrong = ParameterReadBack.mismatches(expected, effective);
        if (!wrong.isEmpty()) {
            throw new ParametersNotAppliedException("system parameters did not reach " + what + " ("
                    + String.join("; ", wrong) + "): the side would run in the wrong configuration");
        }
        return List.of("system parameters in effect (SHOW as " + CapabilityProbe.ADMIN_USER + "): "
                + new SideParams(effective).render());
    }

    /** A side parameter that is not in effect on the started target; the scenario fails with it. */
    public static final class ParametersNotAppliedException extends Exception {
        public ParametersNotAppliedException(String message) {
            super(message);
        }
    }

    /**
     * A server the bench launched (embedded, jar:) and can restart on the same data: what the launch
     * probed (capabilities) and read back (messages) does not change across restarts (same build, same
     * parameters). Like every launched target it is used by the one thread running the scenario
     * (launch, measurements, restarts, close), so it needs no synchronisation; after a restart the
     * port (and a jar's process id) change, so {@link #jdbcUrl()} is read from the server each time.
     */
    private record LaunchedServer(RunningServer server, Set<Capability> capabilities, List<String> messages)
            implements TargetLauncher.LaunchedTarget {
        LaunchedServer {
            capabilities = Set.copyOf(capabilities);
            messages = List.copyOf(messages);
        }

        @Override
        public String jdbcUrl() {
            return server.jdbcUrl();
        }

        @Override
        public String user() {
            return server.user();
        }

        @Override
        public String password() {
            return server.password();
        }

        @Override
        public boolean restartable() {
            return server.restartable();
        }

        @Override
        public void restart() throws Exception {
            server.restart();
        }

        @Override
        public OptionalLong processId() {
            return server.processId();
        }

        @Override
        public boolean inProcess() {
            return server.inProcess();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** A url target: shared, never restarted; {@code stop} puts back what the launch changed. */
    private record Launched(String jdbcUrl, String user, String password, Set<Capability> capabilities,
            List<String> messages, Runnable stop) implements TargetLauncher.LaunchedTarget {
        Launched {
            capabilities = Set.copyOf(capabilities);
            messages = List.copyOf(messages);
        }

        @Override
        public void close() {
            stop.run();
        }
    }
}
