package io.stillwater.engine.session;

import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * A parsed and described statement, ready to execute any number of times with
 * parameters. {@code paramTypes} has one entry per {@code $n}; {@code columns} is empty
 * for statements that return no rows. Immutable; owned by one session.
 *
 * <p>{@code plan} is the statement as the engine planned it; clients (the wire layer)
 * must treat it as opaque. Another {@link Session} implementation (a test double) may
 * leave it null and keep its own plans.
 */
public record PreparedStatement(String sql, String commandTag, List<SqlType> paramTypes,
                                List<ResultColumn> columns, Statement plan) {
    public PreparedStatement {
        paramTypes = List.copyOf(paramTypes);
        columns = List.copyOf(columns);
    }

    /** True when executing returns rows (RowDescription rather than NoData). */
    public boolean returnsRows() { return !columns.isEmpty(); }

    /** True for an empty statement (only whitespace or comments). */
    public boolean isEmpty() { return commandTag.isEmpty(); }
}
