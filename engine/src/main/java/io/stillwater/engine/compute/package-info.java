/**
 * Compute: a replica's runtimes. The maintenance runtime keeps indexes and materialized
 * views up to date as tables change; the interactive runtime (on two-runtime replicas)
 * serves reads from their arrangements concurrently.
 *
 * <p>Two seams. The coordinator drives compute with a totally ordered stream of commands
 * (create or drop a dataflow, the changes of a committed write at its time, an idle
 * frontier advance, close), issued under the coordinator's apply lock in timestamp order,
 * through {@link io.stillwater.engine.compute.ComputeCommands}. The replica queues them and
 * returns at once; its {@code W} worker threads apply them asynchronously, in order.
 * Sessions read through {@link io.stillwater.engine.compute.ComputeReads}: they find a
 * collection's arrangement with {@link io.stillwater.engine.compute.ComputeReads#reader(long)},
 * wait on its frontier with {@link io.stillwater.engine.compute.CollectionReader#readableAt(long)},
 * and hand reads to {@link io.stillwater.engine.compute.ComputeReads#serve}.
 * {@link io.stillwater.engine.compute.ComputeController} is a replica's handle offering both.
 *
 * <p>Dependencies: compute imports the layers below it (types, data, error, expr, plan,
 * arrange, dataflow, params); nothing of the catalog, the coordinator, sessions or the read
 * path. Those depend on compute, never the reverse.
 *
 * <p>Collections and exports: an index or materialized view is an <em>export</em> (its
 * own catalog id) of a <em>collection</em> (the object whose rows it holds: the indexed
 * table or view, or the materialized view itself). Plans read collections by id
 * ({@code PlanNode.Get}); a collection is readable from compute when some export holds it.
 *
 * <p>Implementation: {@link io.stillwater.engine.compute.ComputeReplica} keeps the registry
 * (exports, shared output traces, reference counts) and feeds the
 * {@code MaintenanceRuntime}: {@code W} {@code Worker} threads that each run a copy of
 * every dataflow over a hash partition of the data, exchanging updates by key before
 * keyed operators ({@code ExchangeHub}), hydrating in fueled chunks, and writing their
 * part of each output trace ({@code ExportTrace}: one spine per worker plus an error
 * spine). {@link io.stillwater.engine.compute.ComputeReplica#exports()} is the
 * introspection hook (per export: size, batches, frontier, hydration).
 *
 * <p><b>Serving reads: the two runtimes.</b> A replica is provisioned from a
 * {@link io.stillwater.engine.compute.ReplicaSpec} as <em>solo</em> (one runtime does
 * everything) or <em>two-runtime</em> (maintenance + interactive). The read path hands
 * each read to {@link io.stillwater.engine.compute.ComputeReads#serve} as a
 * {@link io.stillwater.engine.compute.PeekRequest} (kind, parameters read at that read,
 * the session's cancellation, and the {@link io.stillwater.engine.compute.PeekWork}) and
 * awaits the returned {@link io.stillwater.engine.compute.PeekHandle}. Placement
 * ({@link io.stillwater.engine.compute.ComputeRuntime#place}):
 * <ul>
 *   <li>solo: every read is a {@code Command.Serve} on worker 0's queue, run between
 *       commands and between hydration chunks. While it runs, that worker does nothing
 *       else and its peers stall at their next exchange: lookups queue behind walks and
 *       frontiers stop (the regression the bench shows);</li>
 *   <li>two-runtime: the maintenance runtime only maintains (and runs peek dataflows when
 *       {@code enable_compute_interactive_dataflows} is off, as a Serve on worker 0). The
 *       interactive runtime ({@code InteractiveRuntime}) is thread-per-read: a read's inline part runs on the calling
 *       session's thread over published, immutable snapshots, so reads run concurrently
 *       and a lookup never waits behind a walk.</li>
 * </ul>
 * In both, a walk past {@code compute_index_peek_inline_budget} positions continues on
 * the replica's {@code OffloadPool} when {@code enable_compute_index_peek_offload} is on:
 * W fixed threads and one FIFO queue where walks past the limit park (the single place
 * admission is bounded; never an inline fallback). Walks check cancellation every
 * {@code compute_index_peek_yield_granularity} positions; a cancelled queued or parked
 * read never starts, a running one stops at its next check, and {@code await} returns only
 * once the read has stopped, so the session releases its snapshots right after.
 * A read whose rows the session pulls after {@code await} (a peek dataflow, or a walk with
 * offload off, on the interactive runtime: {@link io.stillwater.engine.compute.PeekWork#streams()})
 * stays in flight until the session reports its end
 * ({@link io.stillwater.engine.compute.PeekHandle#streamEnded}). Each read
 * is tracked ({@code PeekTracker}) for {@link io.stillwater.engine.compute.ReplicaIntrospection}:
 * reads in flight, the last 10,000 finished (runtime, kind, offloaded, duration,
 * outcome), and a power-of-two duration histogram.
 */
package io.stillwater.engine.compute;
