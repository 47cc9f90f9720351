/**
 * How long one side of one run measures: warm-up, the stopping rule, the median's confidence
 * interval.
 *
 * <h2>The stopping rule</h2>
 *
 * <p>Each measurement yields one sample per metric (wallclock of the timed span, and the memory
 * metrics the target exposes). Every metric keeps its own {@link io.stillwater.bench.feature.measure.MetricSeries}:
 * its first {@code warmup} samples (default 2) are discarded and never used again, neither for
 * stopping nor for comparing; later samples are kept. After each measurement
 * ({@link io.stillwater.bench.feature.measure.StoppingRule#decide}):
 *
 * <ol>
 *   <li>if {@code --max-measurements} measurements (default 20, warm-up included) are done, stop:
 *       the result is reported as {@code MAX_MEASUREMENTS}, a median less certain than asked for;
 *   <li>otherwise, for every metric that has any sample, take its kept samples. If there are at
 *       least {@code minKept} of them (default 6) and the 95% confidence interval of their median is
 *       at most 10% of the median wide ((upper - lower) / median &lt;= 0.10), that metric is settled.
 *       When every measured metric is settled, stop: {@code CONFIDENT};
 *   <li>otherwise measure again.
 * </ol>
 *
 * <p>A metric that has no sample at all (say RSS on a url target) does not hold the others up; one
 * that is still warming up does.
 *
 * <p>The interval ({@link io.stillwater.bench.feature.measure.MedianInterval}) is distribution-free:
 * with n kept samples sorted, it is [x(k), x(n+1-k)] for the largest k such that the probability
 * that a binomial(n, 1/2) count lies in [k, n-k] is at least the confidence. This holds whatever
 * the distribution of the samples (latencies are skewed and often bimodal; no normal fit is
 * assumed), and it needs at least 6 samples at 95% (with 6, the interval is the whole range:
 * coverage 1 - 2/2^6 = 96.9%). The rule thus says: stop once the middle of the samples is pinned
 * down to within the noise the comparison tolerates; it never looks at the minimum (a best case is
 * not what users get) and never at warm-up samples.
 *
 * <p>Allowed dependencies inside the bench: {@code feature.scenario} only. The bench's packages form a DAG.
 */
package io.stillwater.bench.feature.measure;
