package io.stillwater.engine.session;

import io.stillwater.engine.data.Row;
import java.util.List;
import java.util.Map;

/** What executing one statement produced. */
public sealed interface ExecutionResult {
    /**
     * Rows of a query. {@code tag} is the CommandComplete tag for the full result
     * ({@code SELECT n}); a portal that stops early reports its own count.
     */
    record Rows(List<ResultColumn> columns, List<Row> rows, String commandVerb) implements ExecutionResult {
        public Rows { columns = List.copyOf(columns); rows = List.copyOf(rows); }

        public String tag() { return commandVerb + " " + rows.size(); }
    }

    /**
     * A statement without rows. {@code tag} is the CommandComplete tag ({@code INSERT 0 3},
     * {@code CREATE TABLE}, {@code BEGIN}); {@code parameterChanges} lists session
     * parameters whose value changed and that the client must be told about with
     * ParameterStatus (e.g. after {@code SET application_name}).
     */
    record Command(String tag, Map<String, String> parameterChanges) implements ExecutionResult {
        public Command { parameterChanges = Map.copyOf(parameterChanges); }

        public Command(String tag) { this(tag, Map.of()); }
    }

    /** An empty query string (EmptyQueryResponse). */
    record Empty() implements ExecutionResult {}
}
