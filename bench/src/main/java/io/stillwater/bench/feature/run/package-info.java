/**
 * Runs the feature bench's scenarios: one side once ({@code FeatureRunner}, inside the shared
 * {@code runner.SideLaunch} frame), a whole session with re-runs and A/A calibration ({@code
 * FeatureSession}, {@code FeatureCalibration}, over {@code runner.ScenarioLoop}), and its mapping
 * to the history ({@code FeatureHistory}).
 *
 * <p>Allowed dependencies inside the bench: {@code feature.scenario}, {@code feature.measure},
 * {@code feature.compare}, {@code runner}, {@code history}, {@code targets}, {@code action},
 * {@code scenario}, {@code stats}. The bench's packages form a DAG.
 */
package io.stillwater.bench.feature.run;
