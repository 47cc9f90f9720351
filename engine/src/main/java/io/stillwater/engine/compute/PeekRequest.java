package io.stillwater.engine.compute;

import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.params.ParameterSnapshot;

/**
 * A read for a replica to serve ({@link ComputeReads#serve}).
 *
 * @param statement the statement's text (or an id), for {@code mz_peek_history}
 * @param kind      what kind of read: decides its placement
 * @param indexId   the export it reads ({@code -1}: none or several), for {@code mz_active_peeks}
 * @param asOf      its read time
 * @param params    the system parameters as of this read (environment-scoped ones are read per read)
 * @param cancel    the session's cancellation (CancelRequest and statement_timeout); the
 *                  work polls it wherever it runs
 * @param work      the read itself, over inputs the caller pinned and releases after the
 *                  handle's {@link PeekHandle#await} returns or throws
 */
public record PeekRequest<R>(String statement, PeekKind kind, long indexId, long asOf, ParameterSnapshot params,
                             Cancellation cancel, PeekWork<R> work) {}
