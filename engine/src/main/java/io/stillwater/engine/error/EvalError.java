package io.stillwater.engine.error;

/**
 * An evaluation error as a value (division by zero, overflow, a bad cast in some row).
 * Dataflows carry these in an error collection beside the rows; a read whose error
 * collection is non-empty fails with the least one (so the choice is deterministic).
 */
public record EvalError(SqlState state, String message) implements Comparable<EvalError> {
    @Override
    public int compareTo(EvalError o) {
        int c = message.compareTo(o.message);
        return c != 0 ? c : state.compareTo(o.state);
    }

    /** What every read reports before an evaluation error's own text, as Materialize does. */
    public static final String PREFIX = "Evaluation error: ";

    /**
     * The error a read fails with: {@code Evaluation error: division by zero} (SQLSTATE
     * kept). The prefix is added once, so converting back and forth never doubles it.
     */
    public SqlException toException() {
        return new SqlException(state, message.startsWith(PREFIX) ? message : PREFIX + message);
    }
}
