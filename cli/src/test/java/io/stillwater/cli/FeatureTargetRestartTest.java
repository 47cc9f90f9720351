package io.stillwater.cli;

import java.io.File;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.run.FeatureProgress;
import io.stillwater.bench.feature.run.FeatureRunner;
import io.stillwater.bench.feature.run.MemoryProbe;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The feature benchmark's launched targets: restart on the same data, memory probes, a restarting scenario. */
class FeatureTargetRestartTest {

    /** Restarts its target inside the timed span and then reads what init wrote. */
    public static final class RestartThenCount extends FeatureScenario {
        @Override
        public double defaultScale() {
            return 2;
        }

        @Override
        public boolean restarts() {
            return true;
        }

        @Override
        public String init() {
            return "CREATE TABLE restart_t (a int); INSERT INTO restart_t SELECT g FROM generate_series(1, " + n() + ") g";
        }

        @Override
        public Body benchmark() {
            return Body.timed("restart; SELECT count(*) FROM restart_t", ctx -> {
                ctx.restart();
                try (Connection c = ctx.connect(); Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT count(*) FROM restart_t")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(ctx.n());
                }
            });
        }

        @Override
        public Set<String> dependsOnParams() {
            return Set.of("enable_compute_interactive_runtime");
        }
    }

    private static long count(TargetLauncher.LaunchedTarget t, String table) throws Exception {
        try (Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(TargetLauncher.LaunchedTarget t, String sql) throws Exception {
        try (Connection c = t.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void theEmbeddedTargetRestartsOnItsDataAndReportsItsHeap() throws Exception {
        try (TargetLauncher.LaunchedTarget t = Targets.launcher(new TargetSpec.Embedded(),
                SideParams.parse("enable_compute_interactive_runtime=off")).launch()) {
            assertThat(t.restartable()).isTrue();
            assertThat(t.inProcess()).isTrue();
            assertThat(t.processId()).isEmpty();
            exec(t, "CREATE TABLE kept (a int)");
            exec(t, "INSERT INTO kept VALUES (1), (2), (3)");
            t.restart();
            assertThat(count(t, "kept")).isEqualTo(3);
            try (Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery(
                    "SHOW enable_compute_interactive_runtime")) {
                rs.next();
                assertThat(rs.getString(1)).as("parameters survive the restart").isEqualTo("off");
            }
            Map<Metric, Double> memory = MemoryProbe.sample(t);
            assertThat(memory).containsOnlyKeys(Metric.MEMORY_HEAP);
            assertThat(memory.get(Metric.MEMORY_HEAP)).isPositive();
        }
    }

    @Test
    void aRestartingScenarioIsMeasuredOnTheEmbeddedTargetWithHeapSamples() {
        FeatureScenario s = new RestartThenCount();
        s.applyScale(ScaleOption.NONE);
        SideOutcome o = new FeatureRunner(new MeasurementPolicy(1, 1, 3, 0.95, 0.1), FeatureProgress.NONE)
                .run(s, "this", 1, Targets.launcher(new TargetSpec.Embedded(), SideParams.NONE),
                        s.dependsOnParams());
        assertThat(o).isInstanceOfSatisfying(SideOutcome.Measured.class, m -> {
            assertThat(m.run().samples()).containsOnlyKeys(Metric.WALLCLOCK, Metric.MEMORY_HEAP);
            assertThat(m.run().samples().get(Metric.WALLCLOCK).kept()).hasSize(2).allSatisfy(v -> assertThat(v).isPositive());
            assertThat(m.run().samples().get(Metric.MEMORY_HEAP).discarded()).hasSize(1);
            assertThat(m.run().samples().get(Metric.MEMORY_HEAP).kept()).hasSize(2);
            assertThat(m.run().effectiveParams()).containsEntry("enable_compute_interactive_runtime", "on");
        });
    }

    /**
     * A jar target (this build behind a launcher jar whose manifest puts the test class path on its
     * Class-Path, as BenchCommandTest does) restarts as a new process on the same data directory.
     */
    @Test
    void aJarTargetRestartsAsANewProcessOnTheSameData(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("other-build.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, StillwaterCli.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                        .map(e -> Path.of(e).toUri().toString()).collect(Collectors.joining(" ")));
        try (var out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            // the manifest is the whole jar
        }
        try (TargetLauncher.LaunchedTarget t = Targets.launcher(new TargetSpec.Jar(jar), SideParams.NONE).launch()) {
            assertThat(t.restartable()).isTrue();
            assertThat(t.inProcess()).isFalse();
            long pid = t.processId().orElseThrow();
            exec(t, "CREATE TABLE kept (a int)");
            exec(t, "INSERT INTO kept VALUES (1), (2)");
            t.restart();
            assertThat(t.processId().orElseThrow()).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the old process is gone").isFalse();
            assertThat(count(t, "kept")).isEqualTo(2);
            Map<Metric, Double> memory = MemoryProbe.sample(t);
            assertThat(memory).containsOnlyKeys(Metric.MEMORY_HEAP, Metric.MEMORY_RSS);
            assertThat(memory.get(Metric.MEMORY_HEAP)).isPositive();
            assertThat(memory.get(Metric.MEMORY_RSS)).isGreaterThan(memory.get(Metric.MEMORY_HEAP) / 2);
        }
    }
}
