package io.stillwater.pgwire;

import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.pgwire.protocol.FormatCode;
import java.util.List;

/**
 * A bound statement: parameters decoded, result formats chosen. Executes once; a row
 * limit on Execute leaves it suspended with its result's {@link
 * io.stillwater.engine.session.RowStream} open, so the next Execute continues reading it.
 *
 * <p>Invariant: a portal that executed a query holds an open stream until it is
 * {@link #close closed}: when its rows are all sent, when it fails, when the client
 * closes or replaces it, when its transaction ends, and when the connection ends.
 * Owned by its connection's worker thread.
 */
final class Portal {
    final PreparedStatement statement;
    final String statementName;
    final List<Object> params;
    final List<FormatCode> resultFormats;
    /** Null until the first Execute runs the statement. */
    ExecutionResult result;
    /** Whether every row of a {@link ExecutionResult.Rows} result has been sent. */
    boolean exhausted;
    /** Whether a Command result's ParameterStatus changes have been reported. */
    boolean reported;

    Portal(PreparedStatement statement, String statementName, List<Object> params, List<FormatCode> resultFormats) {
        this.statement = statement;
        this.statementName = statementName;
        this.params = params;
        this.resultFormats = resultFormats;
    }

    /** Releases the result's stream, if any; idempotent. */
    void close() {
        if (result instanceof ExecutionResult.Rows rows) rows.stream().close();
        if (result instanceof ExecutionResult.CopyOut copy) copy.rows().close();
    }
}
