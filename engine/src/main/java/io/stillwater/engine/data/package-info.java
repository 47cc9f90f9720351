/**
 * Rows and their changes: {@link io.stillwater.engine.data.Row} (an immutable tuple of
 * datums), {@link io.stillwater.engine.data.Update} {@code (row, time, diff)}, {@link
 * io.stillwater.engine.data.Changes} (a collection's changes at one time, a Z-set delta).
 *
 * <p>Dependencies: types only.
 */
package io.stillwater.engine.data;
