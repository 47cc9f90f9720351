/**
 * Compute: the maintenance runtime of a replica. It keeps indexes and materialized views
 * up to date as tables change and serves their arrangements to reads.
 *
 * <p>The coordinator drives it with a totally ordered stream of commands (create or drop
 * a dataflow, the changes of a committed write at its time, an idle frontier advance),
 * issued under the coordinator's apply lock in timestamp order, through
 * {@link io.stillwater.engine.compute.ComputeController}. The controller queues them and
 * returns at once; its {@code W} worker threads apply them asynchronously, in order.
 * Reads find a collection's arrangement with
 * {@link io.stillwater.engine.compute.ComputeController#reader(long)} and wait on its
 * frontier with {@link io.stillwater.engine.compute.CollectionReader#readableAt(long)}.
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
 */
package io.stillwater.engine.compute;
