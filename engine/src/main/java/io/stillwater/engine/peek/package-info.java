/**
 * Reads (peeks): {@link io.stillwater.engine.peek.PeekPlanner} classifies a query (constant,
 * fast-path lookup or walk over one index, peek dataflow), {@link
 * io.stillwater.engine.peek.PeekInputs} picks its timestamp by isolation level and pins
 * its inputs there, {@link io.stillwater.engine.peek.PeekExecutor} runs it on the serving
 * replica, and {@link io.stillwater.engine.peek.PeekExplainer} prints the decision for
 * EXPLAIN. Everything here runs on the reading session's thread (or where the replica
 * places the read).
 *
 * <p>Allowed dependencies: from the coordinator only {@code ReadTimestamps}, {@code
 * ReadContext} and {@code SystemRelationRows} (timestamps, holds, built-in rows); {@code
 * compute} (the replica's readers), {@code dataflow}, {@code memory}, {@code plan}, {@code
 * expr}, {@code catalog} and the layers below. Never {@code session} or the root package.
 */
package io.stillwater.engine.peek;
