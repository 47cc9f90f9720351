package io.stillwater.bench.targets;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.runner.TargetSkipException;
import io.stillwater.bench.scenario.Capability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns a side (target spec plus parameters) into a {@link TargetLauncher}. Every launch probes
 * the running target's capabilities ({@link CapabilityProbe}). Parameters are never dropped: a
 * target that cannot apply them fails (embedded, jar: the engine rejects an unknown parameter) or
 * skips the scenario with the reason (url: no ALTER SYSTEM).
 */
public final class Targets {
    /** How long a launched jar may take to log "listening on". */
    private static final long JAR_START_TIMEOUT_SECONDS = 120;

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
        return ServiceLoader.load(EmbeddedEngineFactory.class).findFirst().isPresent();
    }

    private static TargetLauncher.LaunchedTarget launchEmbedded(SideParams params) throws Exception {
        EmbeddedEngineFactory factory = ServiceLoader.load(EmbeddedEngineFactory.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("the embedded target is not available: no "
                        + EmbeddedEngineFactory.class.getName() + " on the class path; run the bench as "
                        + "'stillwater bench', or use --this/--other jar:PATH or url:..."));
        EmbeddedEngineFactory.EmbeddedEngine engine = factory.start(params.values());
        try {
            Set<Capability> caps = CapabilityProbe.probe(engine.jdbcUrl(), engine.user(), "");
            // the engine's canonical spelling when it reports one, else what was asked
            Map<String, String> expected = engine.systemParameterDefaults().isEmpty() ? params.values()
                    : engine.systemParameterDefaults();
            List<String> messages = readBack(engine.jdbcUrl(), "", expected, "the embedded engine");
            return new EmbeddedTarget(engine, caps, messages);
        } catch (Exception e) { // parameters not applied included: never leave the engine running
            engine.close();
            throw e;
        }
    }

    private static TargetLauncher.LaunchedTarget launchJar(Path jar, SideParams params) throws Exception {
        Path dir = Files.createTempDirectory("stillwater-bench-jar");
        ServeProcess p;
        try {
            p = ServeProcess.start(jar, dir, params, JAR_START_TIMEOUT_SECONDS);
        } catch (IOException | RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
        JarTarget target = new JarTarget(jar, dir, params, p);
        try {
            Set<Capability> caps = CapabilityProbe.probe(target.jdbcUrl(), "materialize", "");
            target.probed(caps, readBack(target.jdbcUrl(), "", params.values(), jar.toString()));
            return target;
        } catch (Exception e) { // parameters not applied included: never leave the process running
            target.close();
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

    static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; leftovers are harmless
        }
    }

    /**
     * A server the bench launched and can restart: what the launch probed (capabilities) and read back
     * (messages) is recorded once with {@link #probed}, by the launching thread before the target is
     * handed out, and does not change across restarts (same build, same parameters).
     */
    private abstract static class LaunchedServer implements TargetLauncher.LaunchedTarget {
        private Set<Capability> capabilities = Set.of();
        private List<String> messages = List.of();

        final void probed(Set<Capability> found, List<String> readBack) {
            this.capabilities = Set.copyOf(found);
            this.messages = List.copyOf(readBack);
        }

        @Override
        public final Set<Capability> capabilities() {
            return capabilities;
        }

        @Override
        public final List<String> messages() {
            return messages;
        }

        @Override
        public final boolean restartable() {
            return true;
        }
    }

    /**
     * An embedded engine the bench started; {@link #restart()} reopens it on the same data (the
     * wire server's port changes, so {@link #jdbcUrl()} is read from the engine each time). Like every
     * launched target it is used by the one thread running the scenario (launch, measurements,
     * restarts, close), so its state needs no synchronisation.
     */
    private static final class EmbeddedTarget extends LaunchedServer {
        private final EmbeddedEngineFactory.EmbeddedEngine engine;

        EmbeddedTarget(EmbeddedEngineFactory.EmbeddedEngine engine, Set<Capability> capabilities, List<String> messages) {
            this.engine = engine;
            probed(capabilities, messages);
        }

        @Override
        public String jdbcUrl() {
            return engine.jdbcUrl();
        }

        @Override
        public String user() {
            return engine.user();
        }

        @Override
        public void restart() throws Exception {
            engine.restart();
        }

        @Override
        public boolean inProcess() {
            return true;
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    /**
     * A jar build serving in its own process; {@link #restart()} stops it with SIGTERM (waiting for it
     * to exit) and starts a new process on the same data directory with the same parameters, so the
     * port and the process id change. Owned by the one thread running the scenario (see
     * {@link EmbeddedTarget}): the process field is replaced only by that thread.
     */
    private static final class JarTarget extends LaunchedServer {
        private final Path jar;
        private final Path dir;
        private final SideParams params;
        private ServeProcess process;

        JarTarget(Path jar, Path dir, SideParams params, ServeProcess process) {
            this.jar = jar;
            this.dir = dir;
            this.params = params;
            this.process = process;
        }

        @Override
        public String jdbcUrl() {
            return "jdbc:postgresql://127.0.0.1:" + process.port() + "/materialize";
        }

        @Override
        public String user() {
            return "materialize";
        }

        @Override
        public void restart() throws Exception {
            process.close();
            process = null;
            process = ServeProcess.start(jar, dir, params, JAR_START_TIMEOUT_SECONDS);
        }

        @Override
        public java.util.OptionalLong processId() {
            return process == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(process.pid());
        }

        @Override
        public void close() {
            try {
                if (process != null) {
                    process.close();
                }
            } finally {
                deleteRecursively(dir);
            }
        }
    }

    /** A url target (or one that needs no restart); {@code stop} releases what the launch started. */
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
