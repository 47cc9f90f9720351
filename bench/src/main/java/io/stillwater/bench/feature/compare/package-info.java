/**
 * This against other. Each metric is judged on the median of the kept samples of all runs of a
 * side pooled together ({@link io.stillwater.bench.feature.compare.FeatureComparison}): it regresses
 * when {@code this/other - 1} exceeds its relative threshold (wallclock 10%, memory 20%, or the
 * scenario's own), improves when {@code other/this - 1} does, and is within the threshold otherwise
 * (exactly at the threshold is within). A scenario that regressed in its first run is run again on
 * both sides until it has {@code --runs-per-scenario} runs, never stopped early
 * ({@link io.stillwater.bench.feature.compare.RerunPolicy}); the final verdict is over all runs, so
 * it is neither best-of-N nor all-of-N.
 *
 * <p>Allowed dependencies inside the bench: {@code feature.measure}, {@code feature.scenario}. The bench's packages form a DAG.
 */
package io.stillwater.bench.feature.compare;
