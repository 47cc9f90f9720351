package io.stillwater.bench.history;

/** A run read back from the history file; {@code id} is its key there. */
public record StoredRun(long id, RunInfo info) {
}
