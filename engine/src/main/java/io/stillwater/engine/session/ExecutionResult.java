package io.stillwater.engine.session;

import io.stillwater.engine.copy.CopyEncoder;
import io.stillwater.engine.data.Row;
import java.util.List;
import java.util.Map;

/** What executing one statement produced. */
public sealed interface ExecutionResult {
    /**
     * Rows of a query, as a {@link RowStream} the consumer pulls and must close. The wire
     * layer reads {@link #stream()} batch by batch; embedded callers and tests may call
     * {@link #rows()}, which drains the stream once and keeps the list.
     *
     * <p>Not thread-safe: one thread (the session's) reads it, like the session itself.
     */
    final class Rows implements ExecutionResult {
        private final List<ResultColumn> columns;
        private final RowStream stream;
        private final String commandVerb;
        private List<Row> drained;

        public Rows(List<ResultColumn> columns, RowStream stream, String commandVerb) {
            this.columns = List.copyOf(columns);
            this.stream = stream;
            this.commandVerb = commandVerb;
        }

        /** Rows already in memory. */
        public Rows(List<ResultColumn> columns, List<Row> rows, String commandVerb) {
            this(columns, RowStream.of(rows), commandVerb);
        }

        public List<ResultColumn> columns() { return columns; }

        /** The rows, pulled in batches; the consumer closes it. */
        public RowStream stream() { return stream; }

        /** The CommandComplete verb ({@code SELECT}, {@code SHOW}, {@code EXPLAIN}). */
        public String commandVerb() { return commandVerb; }

        /** Every row: drains (and closes) the stream on the first call, then returns the same list. */
        public List<Row> rows() {
            if (drained == null) drained = List.copyOf(stream.drain());
            return drained;
        }

        /** The CommandComplete tag for the whole result ({@code SELECT n}); drains the stream. */
        public String tag() { return commandVerb + " " + rows().size(); }
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

    /**
     * {@code COPY ... FROM STDIN}: the wire layer answers CopyInResponse ({@code columns}
     * text columns), passes the client's CopyData to {@code target}, and on CopyDone sends
     * what {@link CopyInTarget#done} returns ({@code COPY n}).
     */
    record CopyIn(int columns, CopyInTarget target) implements ExecutionResult {}

    /**
     * {@code COPY ... TO STDOUT}: CopyOutResponse ({@code columns} text columns), the
     * header line if any, one CopyData per row of {@code rows} as {@code encoder} writes it,
     * CopyDone and {@code COPY n}. The consumer closes {@code rows}.
     */
    record CopyOut(int columns, RowStream rows, CopyEncoder encoder) implements ExecutionResult {}

    /** An empty query string (EmptyQueryResponse). */
    record Empty() implements ExecutionResult {}
}
