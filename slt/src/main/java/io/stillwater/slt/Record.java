package io.stillwater.slt;

import java.util.List;

/**
 * One record of a sqllogictest script. Every record carries its location and the
 * {@code skipif}/{@code onlyif} conditions written directly before it.
 */
public sealed interface Record {
    Location location();

    List<Condition> conditions();

    /** True when every condition lets the record run on the named engine. */
    default boolean appliesTo(String engineName) {
        return conditions().stream().allMatch(c -> c.allows(engineName));
    }

    /** {@code statement ok}, {@code statement count N}, {@code statement error [pgcode X] [regex]}. */
    record Statement(Location location, List<Condition> conditions, StatementExpectation expectation, String sql)
            implements Record {
        public Statement {
            conditions = List.copyOf(conditions);
        }
    }

    /** What a statement record expects. */
    sealed interface StatementExpectation {
        record Ok() implements StatementExpectation {}

        record Count(long rows) implements StatementExpectation {}

        record Error(ExpectedError error) implements StatementExpectation {}
    }

    /** {@code query error [pgcode X] <regex>}: the SQL must fail. */
    record QueryError(Location location, List<Condition> conditions, ExpectedError error, String sql) implements Record {
        public QueryError {
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * {@code query <types> [options] [label]}: the SQL must return these results.
     * {@code columnNames} is empty unless the {@code colnames} option was given.
     */
    record Query(
            Location location,
            List<Condition> conditions,
            List<ColumnType> types,
            SortMode sort,
            String label,
            boolean checkColumnNames,
            List<String> columnNames,
            boolean multiline,
            Mode mode,
            String sql,
            ExpectedOutput expected,
            OutputSpan span) implements Record {
        public Query {
            conditions = List.copyOf(conditions);
            types = List.copyOf(types);
            columnNames = List.copyOf(columnNames);
            label = label == null ? "" : label;
        }
    }

    /**
     * {@code simple [conn=NAME][,user=NAME][,multiline]}: the SQL runs over the simple query
     * protocol; output is one line per row (columns joined by {@code ,}), then
     * {@code COMPLETE n} per statement, or the lines of the error.
     */
    record Simple(
            Location location,
            List<Condition> conditions,
            String connection,
            String user,
            boolean multiline,
            String sql,
            List<String> expected,
            OutputSpan span) implements Record {
        public Simple {
            conditions = List.copyOf(conditions);
            expected = List.copyOf(expected);
            connection = connection == null ? "" : connection;
            user = user == null ? "" : user;
        }
    }

    /** {@code hash-threshold N}: results with more than N values are written as a hash (0: never). */
    record HashThreshold(Location location, List<Condition> conditions, int threshold) implements Record {}

    /** {@code halt}: ignore the rest of the script. */
    record Halt(Location location, List<Condition> conditions) implements Record {}

    /** {@code reset-server}: continue on a fresh server (embedded targets only). */
    record ResetServer(Location location, List<Condition> conditions) implements Record {}

    /** A well-formed directive this runner deliberately does not execute (e.g. {@code copy}). */
    record Unsupported(Location location, List<Condition> conditions, String reason) implements Record {}

    /** A record that could not be parsed; the parser resumed at the next blank line. */
    record Malformed(Location location, List<Condition> conditions, String message) implements Record {}
}
