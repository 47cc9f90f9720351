package io.stillwater.engine.session;

import io.stillwater.engine.error.SqlException;

/**
 * Where the data of a {@code COPY ... FROM STDIN} goes while the client sends it (see
 * {@link ExecutionResult.CopyIn}). Nothing is written before {@link #done}: a COPY that
 * fails, is abandoned with CopyFail or loses its client writes nothing.
 *
 * <p>Used by the session's thread only. Once any method has thrown, or {@link #fail} was
 * called, the COPY is over and later calls do nothing.
 */
public interface CopyInTarget {
    /** The next bytes of the data (any chunking). Throws the COPY's error (22P02, 22P04, 53200, ...). */
    void data(byte[] bytes);

    /** The client finished: writes every row at once and returns {@code COPY n}. */
    ExecutionResult.Command done();

    /**
     * The COPY ends without writing (CopyFail, a protocol error, the client gone): releases
     * what it holds and fails an explicit transaction, as any failed statement does.
     * Idempotent.
     */
    void fail(SqlException reason);
}
