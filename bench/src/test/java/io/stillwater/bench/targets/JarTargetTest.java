package io.stillwater.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenarios.Read;
import io.stillwater.targets.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarTargetTest {

    /** A build that cannot start fails the scenario with the process's own words, and the run goes on. */
    @Test
    void aJarThatDoesNotStartFailsTheScenarioWithItsOutput(@TempDir Path dir) throws Exception {
        Path notAJar = Files.writeString(dir.resolve("broken.jar"), "not a jar");
        var launcher = Targets.launcher(TargetSpec.parse("jar:" + notAJar), SideParams.NONE);
        ScenarioResult r = new Runner(Duration.ofSeconds(1)).run(launcher, ScenarioSource.of(Read.class));
        assertThat(r.status()).isEqualTo(ScenarioResult.Status.FAILED);
        assertThat(r.failure()).startsWith("starting the target: ").contains("exited with status 1 before listening")
                .contains("Invalid or corrupt jarfile");
        assertThat(r.version()).isEqualTo("1.0.0");
    }
}
