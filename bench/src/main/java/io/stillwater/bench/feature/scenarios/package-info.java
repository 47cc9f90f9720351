/**
 * The feature bench's scenario catalog ({@code FeatureCatalog}), grouped by class hierarchy, and
 * {@code ScriptBuilder}, the builders of their scripts.
 *
 * <p>Allowed dependencies inside the bench: {@code feature.scenario}, {@code scenario} ({@code
 * Capability}). The bench's packages form a DAG.
 */
package io.stillwater.bench.feature.scenarios;
