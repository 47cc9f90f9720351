/**
 * Memory budgets for reads: how much Java heap a query may hold, and how much all running
 * queries may hold together.
 *
 * <p>{@link io.stillwater.engine.memory.MemoryPool} is the process-wide pool: a fixed share
 * of the maximum heap ({@link io.stillwater.engine.memory.MemoryPool#POOL_FRACTION}) from
 * which running queries reserve; the rest of the heap is the reserve that keeps tables,
 * indexes, {@code SELECT 1}, cancellation and {@code mz_system} sessions working while
 * queries are at their limits. {@link io.stillwater.engine.memory.QueryMemory} is one
 * query's account: every reservation counts against its budget ({@code max_query_memory})
 * and, past a small free allowance, against the pool; closing it returns everything.
 * {@link io.stillwater.engine.memory.HeapEstimate} estimates the heap bytes of rows.
 *
 * <p>Sizes are estimates of Java heap use (object headers, arrays, boxed datums), not
 * measurements: the point is that a query which would exhaust the heap fails with 53200
 * long before it does, and that the pool returns to zero when reads end.
 */
package io.stillwater.engine.memory;
