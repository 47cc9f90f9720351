/**
 * The parallel bench's generic scenarios (they also run on PostgreSQL) and the suites ({@code
 * Suite}).
 *
 * <p>Allowed dependencies inside the bench: {@code scenario} and its layer, {@code runner}
 * ({@code ScenarioSource}), {@code scenarios.interactive}. The bench's packages form a DAG.
 */
package io.stillwater.bench.scenarios;
