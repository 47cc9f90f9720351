package io.stillwater.bench.verify;

/**
 * One row of the target's peek history, as far as verification reads it.
 *
 * @param statement the statement text
 * @param runtime the runtime it ran on ({@code solo}, {@code maintenance}, {@code interactive}); null
 *     when the target does not say
 * @param fastPath true for a fast-path peek, false for a peek dataflow; null when unknown
 * @param offloaded whether the walk was offloaded; null when unknown
 * @param outcome how it ended, as the target says (informational)
 */
public record PeekRecord(String statement, String runtime, Boolean fastPath, Boolean offloaded, String outcome) {
}
