/**
 * Arrangements: indexed, multi-versioned collections of {@code (key, val, time, diff)}
 * updates, shared by tables, indexes and operator state (after differential dataflow's
 * trace module).
 *
 * <ul>
 *   <li>{@link io.stillwater.engine.arrange.Batch}: an immutable, sorted, consolidated,
 *       columnar set of updates with a {@code [lower, upper)} time interval and a
 *       {@code since}.
 *   <li>{@code RowColumn}: how a batch stores its keys or values: {@code PrimitiveRows}
 *       (int/bigint columns and a NULL bitmap, no object per row), {@code EmptyRows} (all the
 *       empty row, no storage), {@code BoxedRows} (one {@code Row} each, the fallback); chosen
 *       by {@code RowColumnBuilder} when a batch is built, read back as equal rows.
 *   <li>{@link io.stillwater.engine.arrange.Batcher}: turns unsorted updates into a batch.
 *   <li>{@link io.stillwater.engine.arrange.Cursor}: navigates keys, then values, of one or
 *       many batches as one merged, sorted view, and accumulates diffs at a read time.
 *   <li>{@link io.stillwater.engine.arrange.Spine}: the single-writer list of batches,
 *       merged geometrically with fuel, logically compacted up to the oldest
 *       {@link io.stillwater.engine.arrange.ReadHold}.
 *   <li>{@link io.stillwater.engine.arrange.TraceSnapshot}: what the spine publishes after
 *       every change; lock-free, immutable, readable from any thread.
 * </ul>
 *
 * <p>Times are totally ordered longs, so every frontier is one number: {@code upper} (all
 * updates at times {@code < upper} are final) and {@code since} (contents are exact at
 * times {@code >= since}). A read at {@code t} is valid when {@code since <= t < upper}.
 */
package io.stillwater.engine.arrange;
