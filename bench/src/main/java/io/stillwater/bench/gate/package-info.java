/**
 * Verdicts of the parallel bench: thresholds per action and stat, the comparison of two sides'
 * medians ({@code Verdicts}), guarantees a run must meet, and the interleaved order of sides
 * ({@code Side}).
 *
 * <p>Allowed dependencies inside the bench: {@code stats}. The bench's packages form a DAG.
 */
package io.stillwater.bench.gate;
