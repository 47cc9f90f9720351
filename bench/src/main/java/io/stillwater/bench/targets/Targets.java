package io.stillwater.bench.targets;

import io.stillwater.bench.runner.SqlErrors;
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

    private static Launched launchEmbedded(SideParams params) throws Exception {
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
            return new Launched(engine.jdbcUrl(), engine.user(), "", caps, messages, engine::close);
        } catch (SQLException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    private static Launched launchJar(Path jar, SideParams params) throws Exception {
        Path dir = Files.createTempDirectory("stillwater-bench-jar");
        ServeProcess p;
        try {
            p = ServeProcess.start(jar, dir, params, JAR_START_TIMEOUT_SECONDS);
        } catch (IOException | RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
        Runnable stop = () -> {
            p.close();
            deleteRecursively(dir);
        };
        String url = "jdbc:postgresql://127.0.0.1:" + p.port() + "/materialize";
        try {
            Set<Capability> caps = CapabilityProbe.probe(url, "materialize", "");
            List<String> messages = readBack(url, "", params.values(), jar.toString());
            return new Launched(url, "materialize", "", caps, messages, stop);
        } catch (SQLException | RuntimeException e) {
            stop.run();
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

    /** One launched target; {@code stop} releases what the launch started. */
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
