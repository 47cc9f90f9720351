/**
 * Durable storage: the write-ahead log that is the source of truth for the catalog and
 * every table.
 *
 * <ul>
 *   <li>{@link io.stillwater.engine.storage.WriteAheadLog}: open (with recovery), replay,
 *       group-committed appends, close.</li>
 *   <li>{@link io.stillwater.engine.storage.LogRecord}: what the log holds (table DDL,
 *       table writes, other catalog entries).</li>
 *   <li>{@link io.stillwater.engine.storage.RowCodec}, {@link
 *       io.stillwater.engine.storage.BinaryWriter}, {@link
 *       io.stillwater.engine.storage.BinaryReader}: the binary encoding of rows, datums and
 *       catalog definitions, also for building {@code CatalogEntry} payloads.</li>
 * </ul>
 */
package io.stillwater.engine.storage;
