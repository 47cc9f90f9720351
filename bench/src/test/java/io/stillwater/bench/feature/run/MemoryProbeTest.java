package io.stillwater.bench.feature.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.Capability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The memory probe's three kinds of target, with this JVM standing in for the engine process. */
class MemoryProbeTest {

    /** Nothing listens on port 1: a target without the memory relation. */
    private static TargetLauncher.LaunchedTarget target(boolean inProcess, OptionalLong pid) {
        return new TargetLauncher.LaunchedTarget() {
            @Override
            public String jdbcUrl() {
                return "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2";
            }

            @Override
            public String user() {
                return "nobody";
            }

            @Override
            public Set<Capability> capabilities() {
                return Set.of();
            }

            @Override
            public boolean inProcess() {
                return inProcess;
            }

            @Override
            public OptionalLong processId() {
                return pid;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void inProcessTheHeapAfterACollectionIsMeasured() {
        Map<Metric, Double> m = MemoryProbe.sample(target(true, OptionalLong.empty()));
        assertThat(m).containsOnlyKeys(Metric.MEMORY_HEAP);
        assertThat(m.get(Metric.MEMORY_HEAP)).isPositive();
    }

    @Test
    void aProcessIsAskedToCollectAndItsResidentSetRead() {
        long self = ProcessHandle.current().pid();
        Map<Metric, Double> m = MemoryProbe.sample(target(false, OptionalLong.of(self)));
        // this JVM exposes no mz_process_memory relation: heap absent (never 0), RSS from /proc
        assertThat(m).doesNotContainKey(Metric.MEMORY_HEAP);
        if (Files.isReadable(Path.of("/proc/self/status"))) {
            assertThat(m.get(Metric.MEMORY_RSS)).isPositive();
        }
        if (Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jcmd"))) {
            assertThat(MemoryProbe.collect(self)).as("jcmd GC.run on this JVM").isTrue();
        }
    }

    @Test
    void aUrlTargetWithoutTheRelationHasNoMemoryMetric() {
        assertThat(MemoryProbe.sample(target(false, OptionalLong.empty()))).isEmpty();
    }
}
