package io.stillwater.cli;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.pgwire.PgServer;
import io.stillwater.slt.EmbeddedTargetFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The {@code embedded} target of the sqllogictest runner (and later the bench): a fresh
 * engine in a temporary data directory plus a wire server on an ephemeral loopback
 * port. Tools reach it through pgjdbc like any other server, so they never depend on
 * engine internals. fsync stays on: the embedded engine is the real one.
 */
public final class EmbeddedStillwaterFactory implements EmbeddedTargetFactory {
    @Override
    public EmbeddedServer start() throws IOException {
        Path dir = Files.createTempDirectory("stillwater-embedded");
        Engine engine = Engine.open(new EngineConfig(dir, true, 1));
        PgServer server;
        try {
            server = new PgServer(engine::connect).start("127.0.0.1", 0);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
        return new EmbeddedServer() {
            @Override
            public String jdbcUrl() { return "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize"; }

            @Override
            public String defaultUser() { return "materialize"; }

            @Override
            public void close() {
                server.close();
                engine.close();
                deleteRecursively(dir);
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
