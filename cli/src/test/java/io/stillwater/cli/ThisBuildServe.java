package io.stillwater.cli;

import io.stillwater.targets.ServeProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * This build's {@code stillwater serve} ({@link StillwaterCli} on the test's class path) in a child
 * JVM, started through the one launcher ({@link ServeProcess}), for tests that must kill the server
 * the way a crash does or read what it logs.
 */
final class ThisBuildServe {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private ThisBuildServe() {
    }

    static ServeProcess start(Path dataDir) throws IOException {
        return start(dataDir, List.of());
    }

    /** As {@link #start(Path)}, with {@code serveOptions} after the standard ones. */
    static ServeProcess startWithServeOptions(Path dataDir, List<String> serveOptions) throws IOException {
        ServeProcess.Command serve = ServeProcess.Command.classPath(StillwaterCli.class.getName(), List.of())
                .withServeOptions(List.of("--listen", "127.0.0.1")).withServeOptions(serveOptions);
        return ServeProcess.start(serve, dataDir, START_TIMEOUT);
    }

    /** As {@link #start(Path)}, with {@code jvmOptions} on the child's java command line (before the class). */
    static ServeProcess start(Path dataDir, List<String> jvmOptions) throws IOException {
        ServeProcess.Command serve = ServeProcess.Command.classPath(StillwaterCli.class.getName(), jvmOptions)
                .withServeOptions(List.of("--listen", "127.0.0.1"));
        return ServeProcess.start(serve, dataDir, START_TIMEOUT);
    }
}
