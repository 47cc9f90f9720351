/**
 * The runner skeleton both benchmarks share ({@code SideLaunch}: launch a side through a {@code
 * TargetLauncher}, skip or fail, missing capabilities, close; {@code ScenarioLoop}: scenarios in
 * order, progress, a scenario that throws is FAILED and the run goes on), and the parallel
 * bench's own runner ({@code Runner}: phases, load, comparisons by the median) with its mapping
 * to the history ({@code ComparisonHistory}). {@code Target}, {@code TargetLauncher} and {@code
 * TargetSkipException} are the launching SPI.
 *
 * <p>Allowed dependencies inside the bench: {@code action}, {@code gate}, {@code history}, {@code
 * load}, {@code scenario}, {@code stats}, {@code verify}; never {@code cli}, {@code report} or
 * the feature bench. The bench's packages form a DAG.
 */
package io.stillwater.bench.runner;
