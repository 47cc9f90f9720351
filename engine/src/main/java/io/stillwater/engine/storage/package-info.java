/**
 * Durable storage: the write-ahead log that is the source of truth for the catalog and
 * every table.
 *
 * <ul>
 *   <li>{@link io.stillwater.engine.storage.WriteAheadLog}: open (with recovery), replay,
 *       group-committed appends, close.</li>
 *   <li>{@code SegmentValidator}, {@code SegmentHeader}, {@code WalControl}: what open checks
 *       (only a torn final write is cut; other damage is a {@link
 *       io.stillwater.engine.storage.LogDamageException} naming file and offset), and {@link
 *       io.stillwater.engine.storage.LogCut}, the operator's deliberate cut.</li>
 *   <li>{@link io.stillwater.engine.storage.LogRecord}: what the log holds (table DDL,
 *       table writes, other catalog entries).</li>
 *   <li>{@link io.stillwater.engine.storage.RowCodec}, {@link
 *       io.stillwater.engine.storage.BinaryWriter}, {@link
 *       io.stillwater.engine.storage.BinaryReader}: the binary encoding of rows, datums and
 *       column types, also for building {@code CatalogEntry} payloads.</li>
 * </ul>
 *
 * <p>Dependencies: types, data, error only. Storage knows no catalog types: a table's
 * definition reaches it as plain values ({@code LogRecord.CreateTable}), other
 * definitions as opaque payloads; the catalog encodes and decodes them.
 */
package io.stillwater.engine.storage;
