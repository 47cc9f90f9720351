/**
 * The results history: one SQLite file for both benchmarks, with one schema API. Runs, scenarios
 * and calibrations are written and read as the history's own records ({@code RunInfo}, {@code
 * RecordedScenario}, {@code RecordedFeatureScenario}, {@code StoredScenario}, {@code
 * Calibration}); {@code HistorySchema} creates and upgrades the tables (files of schema 1 and 2
 * open and are upgraded); each benchmark maps its results to and from these records in its own
 * package ({@code runner.ComparisonHistory}, {@code feature.run.FeatureHistory}).
 *
 * <p>Allowed dependencies inside the bench: {@code gate}, {@code stats} (the shared measurement
 * vocabulary); never either benchmark's packages, nor {@code targets}. The bench's packages form
 * a DAG.
 */
package io.stillwater.bench.history;
