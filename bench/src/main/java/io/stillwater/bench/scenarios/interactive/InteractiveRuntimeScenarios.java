package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.runner.ScenarioSource;
import java.util.List;

/**
 * The interactive-runtime scenarios: what {@code stillwater bench} runs by default (this = the
 * side's defaults, other = {@code enable_compute_interactive_runtime=false}). They need clusters,
 * arrangements, introspection and the interactive runtime's parameters, so PostgreSQL skips them
 * with the reason.
 */
public final class InteractiveRuntimeScenarios {
    private InteractiveRuntimeScenarios() {
    }

    public static List<ScenarioSource> all() {
        return List.of(
                ScenarioSource.of(TemporaryDataflowFloor.class),
                ScenarioSource.of(IntrospectionUnderHydration.class),
                ScenarioSource.of(FreshnessUnderPeekDataflows.class),
                ScenarioSource.of(PeekIsolationUnderExpensivePeeks.class),
                ScenarioSource.of(FreshnessUnderPeekWalks.class),
                ScenarioSource.of(ReadIsolationUnderHydration.class),
                ScenarioSource.of(MaintenanceUnderPeekSaturation.class));
    }
}
