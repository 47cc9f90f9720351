/**
 * COPY's data formats and the rows they carry: {@link io.stillwater.engine.copy.CopyLoader}
 * reads the bytes a client sends for {@code COPY t FROM STDIN} (text or CSV, as they
 * arrive in any chunking) into one table write, with PostgreSQL's errors naming the line
 * and column ({@link io.stillwater.engine.copy.CopyError}); {@link
 * io.stillwater.engine.copy.CopyEncoder} writes the rows of {@code COPY ... TO STDOUT}.
 * The session drives both; the wire layer only moves bytes.
 *
 * <p>Allowed dependencies: sql (the statement and its options), catalog, storage (table
 * changes), types, data, error. Nothing above.
 */
package io.stillwater.engine.copy;
