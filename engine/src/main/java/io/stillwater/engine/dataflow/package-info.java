/**
 * Dataflows: operators over updates {@code (row, time, diff)} and the one-shot read.
 *
 * <p>Step model (DBSP-style, since times are totally ordered longs): a {@link
 * io.stillwater.engine.dataflow.Dataflow} is stepped at increasing times; at each step
 * every operator, in topological order, receives its inputs' changes at that time and
 * emits its output changes at that time, keeping whatever state it needs (today hash maps
 * keyed by rows; arrangements later). The accumulated output after any step equals the
 * plan evaluated over the accumulated inputs, retractions included.
 *
 * <p>Errors are data: an operator that fails to evaluate an expression for some row adds
 * an {@link io.stillwater.engine.error.EvalError} row to the step's error collection and
 * goes on; a read fails with the least error present.
 *
 * <p>Entry points: {@link io.stillwater.engine.dataflow.DataflowBuilder} (plan to
 * dataflow), {@link io.stillwater.engine.dataflow.Dataflow#step} (maintained use),
 * {@link io.stillwater.engine.dataflow.PipelinedRead} (a peek: the same operators pulled
 * in bounded chunks at the read time, within a memory budget; {@link
 * io.stillwater.engine.dataflow.OneShotRead} materializes it) and {@link
 * io.stillwater.engine.dataflow.FinishedRows} (ORDER BY/LIMIT/OFFSET of a SELECT's result,
 * applied as rows arrive).
 *
 * <p>Data parallelism: {@link io.stillwater.engine.dataflow.DataflowBuilder#partitioned}
 * builds one worker's copy of a dataflow, with an exchange node before every keyed
 * operator that routes updates to their key's worker through an
 * {@link io.stillwater.engine.dataflow.Exchange} (compute's maintenance runtime
 * provides it). One-shot reads never partition, so they pay nothing for it.
 */
package io.stillwater.engine.dataflow;
