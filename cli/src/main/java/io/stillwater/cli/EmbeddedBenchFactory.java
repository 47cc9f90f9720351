package io.stillwater.cli;

import io.stillwater.bench.targets.EmbeddedEngineFactory;
import io.stillwater.engine.Engine;
import io.stillwater.engine.EngineConfig;
import io.stillwater.pgwire.PgServer;
import java.io.IOException;
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
 * <p>System parameter defaults: the engine has no system parameters yet (issue 5 adds a typed
 * registry and an engine option for defaults). Until then every requested parameter is unknown and
 * the start fails naming it: an A/B run whose parameter silently did nothing would compare the
 * build with itself. When the engine gains defaults, pass {@code systemParameterDefaults} to it
 * here and let it reject unknown names and bad values.
 */
public final class EmbeddedBenchFactory implements EmbeddedEngineFactory {
    @Override
    public EmbeddedEngine start(Map<String, String> systemParameterDefaults) throws IOException {
        if (!systemParameterDefaults.isEmpty()) {
            throw new IllegalArgumentException("unrecognized configuration parameter"
                    + (systemParameterDefaults.size() > 1 ? "s " : " ") + String.join(", ", systemParameterDefaults.keySet())
                    + ": this engine build has no system parameters yet, so the side cannot run as requested");
        }
        Path dir = Files.createTempDirectory("stillwater-bench-embedded");
        Engine engine;
        PgServer server;
        try {
            engine = Engine.open(new EngineConfig(dir, true, 1));
        } catch (RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
        try {
            server = new PgServer(engine::connect).start("127.0.0.1", 0);
        } catch (RuntimeException e) {
            engine.close();
            deleteRecursively(dir);
            throw e;
        }
        return new EmbeddedEngine() {
            @Override
            public String jdbcUrl() {
                return "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize";
            }

            @Override
            public String user() {
                return "materialize";
            }

            @Override
            public void close() {
                try {
                    server.close();
                } finally {
                    engine.close();
                    deleteRecursively(dir);
                }
            }
        };
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; leftovers are harmless
        }
    }
}
