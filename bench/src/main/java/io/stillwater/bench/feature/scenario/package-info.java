/**
 * The feature-scenario API and the suite.
 *
 * <ul>
 *   <li>{@link io.stillwater.bench.feature.scenario.FeatureScenario}: one concrete class per scenario;
 *       abstract classes between it and the scenarios are the groups {@code --root-scenario} names.
 *   <li>{@link io.stillwater.bench.feature.scenario.Scripts}: statements split on {@code ;} outside
 *       quotes, dollar quotes and comments; the {@code /* A *}{@code /} and {@code /* B *}{@code /}
 *       markers of the timed span; {@code /* expect: V *}{@code /} result checks; the normalised text
 *       duplicate detection compares.
 *   <li>{@link io.stillwater.bench.feature.scenario.ScaleOption}: {@code --scale}, absolute or relative.
 *   <li>{@link io.stillwater.bench.feature.scenario.FeatureSuite}: selection by group or name, and
 *       loading: instantiating, scaling, parsing every script and rejecting duplicates, all before
 *       anything runs, with every problem reported at once naming its scenario(s).
 * </ul>
 *
 * <p>Allowed dependencies inside the bench: {@code scenario} ({@code Capability}) only. The bench's packages form a DAG.
 */
package io.stillwater.bench.feature.scenario;
