/**
 * Latency statistics: the recorder a load loop feeds, the samples for plots, and each action's
 * summary ({@code ActionStatistics}, {@code Stat}); the measurement vocabulary both benchmarks
 * and the history share.
 *
 * <p>Allowed dependencies inside the bench: nothing else in the bench. The bench's packages form
 * a DAG.
 */
package io.stillwater.bench.stats;
