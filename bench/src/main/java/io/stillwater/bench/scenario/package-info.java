/**
 * The parallel bench's scenario API: a {@code Scenario} declares phases (setup, system
 * parameters, load, cleanup), thresholds, guarantees, capabilities and self-verification
 * expectations, and is checked into a {@code ScenarioDefinition}.
 *
 * <p>Allowed dependencies inside the bench: {@code action}, {@code arrival}, {@code gate}, {@code
 * load}, {@code stats}, {@code verify}. The bench's packages form a DAG.
 */
package io.stillwater.bench.scenario;
