/**
 * A table's contents ({@link io.stillwater.engine.table.Table}): an arrangement keyed by
 * the whole row, bag semantics (the diff is the multiplicity), with read holds for
 * snapshots.
 *
 * <p>Dependencies: arrange, data, and catalog (the table's definition). The coordinator
 * owns and applies writes to tables; readers pin snapshots.
 */
package io.stillwater.engine.table;
