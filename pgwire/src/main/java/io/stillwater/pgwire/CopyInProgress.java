package io.stillwater.pgwire;

import io.stillwater.engine.session.CopyInTarget;
import java.util.Iterator;

/**
 * A connection in copy-in mode: a {@code COPY ... FROM STDIN} waits for the client's
 * CopyData, CopyDone or CopyFail. Sync and Flush are ignored meanwhile, as PostgreSQL
 * does. {@code restOfQuery} holds the statements of the simple query after the COPY (run
 * once it ends), or is null when the COPY came through the extended protocol (whose
 * client sends a Sync after CopyDone). Owned by the connection's worker thread.
 */
record CopyInProgress(CopyInTarget target, Iterator<String> restOfQuery) {
    boolean simple() { return restOfQuery != null; }
}
