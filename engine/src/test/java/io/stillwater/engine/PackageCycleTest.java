package io.stillwater.engine;

import io.stillwater.testkit.PackageCycles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages form a DAG: a package may use another only if that one does not use it
 * back, directly or through others (docs/architecture.md). On failure the message lists every
 * cycle with the class edges that make it; break one of them (move the class, or invert the use
 * through an interface in the lower package).
 */
class PackageCycleTest {
    @Test
    void packagesHaveNoCycles() {
        PackageCycles.assertNone(Path.of("target/classes"), "io.stillwater.engine");
    }
}
