/**
 * The load driver: runs a load phase's loops (open and closed) against invokers, for a fixed
 * time, recording every sample.
 *
 * <p>Allowed dependencies inside the bench: {@code action}, {@code arrival}, {@code stats}. The
 * bench's packages form a DAG.
 */
package io.stillwater.bench.load;
