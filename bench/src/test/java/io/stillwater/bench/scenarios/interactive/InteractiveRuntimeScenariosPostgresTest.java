package io.stillwater.bench.scenarios.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioResult.Status;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.slt.PostgresCluster;
import io.stillwater.targets.TargetSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Against a real, throwaway PostgreSQL (15 where installed), through a url target: PostgreSQL has
 * no clusters, arrangements, introspection or interactive runtime, so every interactive-runtime
 * scenario is skipped with the reason, before running anything.
 */
class InteractiveRuntimeScenariosPostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    @Test
    void everyScenarioIsSkippedOnPostgresWithTheMissingCapabilities() throws Exception {
        var launcher = Targets.launcher(TargetSpec.parse("url:" + PG.url()), SideParams.NONE);
        Runner runner = new Runner(Duration.ofSeconds(2));
        List<ScenarioResult> results = new ArrayList<>();
        for (ScenarioSource source : InteractiveRuntimeScenarios.all()) {
            results.add(runner.run(launcher, source));
        }

        assertThat(results).extracting(ScenarioResult::scenario).containsExactly("TemporaryDataflowFloor",
                "IntrospectionUnderHydration", "FreshnessUnderPeekDataflows", "PeekIsolationUnderExpensivePeeks",
                "FreshnessUnderPeekWalks", "ReadIsolationUnderHydration", "MaintenanceUnderPeekSaturation");
        for (ScenarioResult r : results) {
            assertThat(r.status()).as(r.scenario() + ": " + r.failure()).isEqualTo(Status.SKIPPED);
            assertThat(r.failure()).as(r.scenario()).startsWith("target lacks [").contains("CLUSTERS", "ARRANGEMENTS",
                    "INTROSPECTION", "INTERACTIVE_RUNTIME");
            assertThat(r.version()).as(r.scenario()).isEqualTo("1.0.0");
            assertThat(r.actions()).as(r.scenario()).isEmpty();
        }
        assertThat(results).filteredOn(r -> r.scenario().equals("PeekIsolationUnderExpensivePeeks")
                || r.scenario().equals("FreshnessUnderPeekWalks"))
                .allSatisfy(r -> assertThat(r.failure()).contains("SYSTEM_PARAMETERS"));

        // skipped before any phase: nothing was created on the server
        try (Connection c = PG.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT count(*) FROM pg_catalog.pg_class WHERE relname LIKE 'bench\\_%'")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }
}
