package io.stillwater.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scenario failures stay inside their scenario; needs no database (no phase connects). */
class RunnerIsolationTest {
    /** Port 1 on loopback: nothing listens, so any connection attempt would fail loudly. */
    private static final Target NOWHERE = Target.of("jdbc:postgresql://127.0.0.1:1/none", "nobody", Set.of());

    public static final class ThrowsInConstructor extends Scenario {
        public ThrowsInConstructor() {
            throw new IllegalStateException("autocommit cannot change in a transaction");
        }
    }

    public static final class UnknownThresholdKey extends Scenario {
        public UnknownThresholdKey() {
            load(Duration.ofSeconds(1), closedLoop(reuseConn("SELECT 1")));
            thresholds("SELECT 2 (reuse connection)", CONTENDED);
        }
    }

    public static final class NeedsClusters extends Scenario {
        public NeedsClusters() {
            requires(Capability.CLUSTERS);
            setup("CREATE CLUSTER c SIZE '1'");
        }
    }

    public static final class Empty extends Scenario {
        @Override
        public String version() {
            return "2.0.0";
        }
    }

    public static final class SetupAgainstNowhere extends Scenario {
        public SetupAgainstNowhere() {
            setup("SELECT 1");
        }
    }

    @Test
    void aThrowingScenarioIsReportedFailedAndTheRunContinues() {
        List<ScenarioResult> results = new Runner().run(NOWHERE, List.of(
                ScenarioSource.of(ThrowsInConstructor.class),
                ScenarioSource.of(UnknownThresholdKey.class),
                ScenarioSource.of(NeedsClusters.class),
                ScenarioSource.of(SetupAgainstNowhere.class),
                ScenarioSource.of(Empty.class)));
        assertThat(results).extracting(ScenarioResult::scenario).containsExactly("ThrowsInConstructor",
                "UnknownThresholdKey", "NeedsClusters", "SetupAgainstNowhere", "Empty");
        assertThat(results).extracting(ScenarioResult::status).containsExactly(Status.FAILED, Status.FAILED,
                Status.SKIPPED, Status.FAILED, Status.COMPLETED);
        assertThat(results.get(0).failure()).isEqualTo(
                "construction: IllegalStateException: autocommit cannot change in a transaction");
        assertThat(results.get(1).failure()).startsWith("construction: ").contains("\"SELECT 2 (reuse connection)\"");
        assertThat(results.get(2).failure()).isEqualTo("target lacks [CLUSTERS]");
        assertThat(results.get(3).failure()).startsWith("phase 1 (setup): 08");
        assertThat(results.get(4).version()).isEqualTo("2.0.0");
        assertThat(results.get(4).passed()).isTrue();
    }
}
