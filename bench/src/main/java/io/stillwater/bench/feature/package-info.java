/**
 * The feature benchmark ({@code stillwater feature-bench}): the cost of one feature at a time,
 * measured precisely on two sides (two builds or two configurations) by repeating a timed script.
 *
 * <ul>
 *   <li>{@code feature.scenario}: the scenario API ({@link io.stillwater.bench.feature.scenario.FeatureScenario},
 *       {@link io.stillwater.bench.feature.scenario.Body}, markers, scale), loading, selection by class
 *       hierarchy and duplicate detection;
 *   <li>{@code feature.measure}: warm-up, the stopping rule, the median's confidence interval;
 *   <li>{@code feature.compare}: this vs other on the median, thresholds, the re-run policy, verdict text;
 *   <li>{@code feature.run}: runs one scenario on one side (targets, timing, memory probes);
 *   <li>{@code report} (shared with the parallel bench): terminal, JSON, JUnit and HTML reports of a feature run;
 *   <li>{@code feature.cli}: the command;
 *   <li>{@code feature.scenarios}: the scenario catalog.
 * </ul>
 *
 * <p>Like the parallel benchmark it reaches every target through JDBC only and shares its targets
 * ({@code bench.targets}), results history ({@code bench.history}) and report plumbing.
 */
package io.stillwater.bench.feature;
