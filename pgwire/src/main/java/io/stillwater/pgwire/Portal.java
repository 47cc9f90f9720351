package io.stillwater.pgwire;

import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.pgwire.protocol.FormatCode;
import java.util.List;

/**
 * A bound statement: parameters decoded, result formats chosen. Executes once; a row
 * limit on Execute leaves it suspended at {@link #position} so the next Execute resumes.
 * Owned by its connection's worker thread.
 */
final class Portal {
    final PreparedStatement statement;
    final String statementName;
    final List<Object> params;
    final List<FormatCode> resultFormats;
    /** Null until the first Execute runs the statement. */
    ExecutionResult result;
    /** Rows of {@link #result} already sent. */
    int position;
    /** Whether a Command result's ParameterStatus changes have been reported. */
    boolean reported;

    Portal(PreparedStatement statement, String statementName, List<Object> params, List<FormatCode> resultFormats) {
        this.statement = statement;
        this.statementName = statementName;
        this.params = params;
        this.resultFormats = resultFormats;
    }
}
