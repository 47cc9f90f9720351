package io.stillwater.bench.scenarios;

import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenarios.interactive.InteractiveRuntimeScenarios;
import java.util.ArrayList;
import java.util.List;

/**
 * The registry of every scenario this build knows, by set. A scenario's name is its identity (history,
 * sharding, {@code --scenario}), so no name appears in two sets.
 */
public enum Suite {
    /** The interactive-runtime scenarios: the main job ({@code stillwater bench} without arguments). */
    INTERACTIVE,
    /** The generic scenarios: any PostgreSQL-compatible target. */
    GENERIC,
    /** Both, the interactive-runtime scenarios first. */
    ALL;

    public List<ScenarioSource> scenarios() {
        return switch (this) {
            case INTERACTIVE -> InteractiveRuntimeScenarios.all();
            case GENERIC -> GenericScenarios.all();
            case ALL -> {
                List<ScenarioSource> all = new ArrayList<>(InteractiveRuntimeScenarios.all());
                all.addAll(GenericScenarios.all());
                yield List.copyOf(all);
            }
        };
    }

    /** Every known scenario: what {@code --scenario NAME} and {@code --list} choose from. */
    public static List<ScenarioSource> all() {
        return ALL.scenarios();
    }
}
