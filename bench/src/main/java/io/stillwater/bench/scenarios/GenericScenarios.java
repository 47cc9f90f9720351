package io.stillwater.bench.scenarios;

import io.stillwater.bench.runner.ScenarioSource;
import java.util.List;

/**
 * The scenarios that run on any PostgreSQL-compatible target (PostgreSQL, Materialize, Stillwater);
 * those needing indexes are skipped where the target lacks them.
 */
public final class GenericScenarios {
    private GenericScenarios() {
    }

    public static List<ScenarioSource> all() {
        return List.of(
                ScenarioSource.of(Read.class),
                ScenarioSource.of(PoolRead.class),
                ScenarioSource.of(ConnectRead.class),
                ScenarioSource.of(InsertsSelects.class),
                ScenarioSource.of(OpenIndexedSelects.class),
                ScenarioSource.of(PointLookupThroughput.class),
                ScenarioSource.of(IngestOverload.class),
                ScenarioSource.of(JoinGroupByIngest.class));
    }
}
