/**
 * The coordinator: sequences every change to the database and gives reads their
 * timestamps. {@link io.stillwater.engine.coord.Coordinator} is the composition root; each
 * job has a class of its own (see its class comment for the map): the write pipeline
 * (timestamps, write admission, group commit, apply in timestamp order, idle ticks), the
 * applied state and its recovery from the log, DDL sequencing, cluster management and
 * hydration, read timestamps, and table writes.
 *
 * <p>Concurrency: the {@link io.stillwater.engine.coord.WritePipeline} owns the two locks
 * (write lock, then apply lock); every other class takes them only through it. Applied
 * state is published as immutable values or concurrent maps, so reads need no lock.
 *
 * <p>Allowed dependencies: the layers below ({@code catalog}, {@code compute}, {@code
 * storage}, {@code table}, {@code time}, {@code params}, {@code sql} for statement
 * records and dataflow planning, {@code plan}, {@code expr}, {@code data}, {@code error},
 * {@code config}). Never {@code session}, {@code peek} or the root package, which sit
 * above it.
 */
package io.stillwater.engine.coord;
