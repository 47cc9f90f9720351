/**
 * SQL types and datums: {@link io.stillwater.engine.types.SqlType} and {@link
 * io.stillwater.engine.types.TypeKind} (with PostgreSQL OIDs), datum order ({@link
 * io.stillwater.engine.types.Datums}), casts ({@link io.stillwater.engine.types.Casts}),
 * PostgreSQL text input and output ({@link io.stillwater.engine.types.DatumText}).
 *
 * <p>Dependencies: error only. The bottom of the engine: every other package may use it.
 */
package io.stillwater.engine.types;
