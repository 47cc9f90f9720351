package io.stillwater.engine.session;

import io.stillwater.engine.types.SqlType;
import java.util.List;

/**
 * A parsed and described statement, ready to execute any number of times with
 * parameters. {@code paramTypes} has one entry per {@code $n}; {@code columns} is empty
 * for statements that return no rows. Immutable; owned by one session.
 *
 * <p>{@code plan} is the engine's private representation; clients (the wire layer)
 * must treat it as opaque.
 */
public record PreparedStatement(String sql, String commandTag, List<SqlType> paramTypes,
                                List<ResultColumn> columns, Object plan) {
    public PreparedStatement {
        paramTypes = List.copyOf(paramTypes);
        columns = List.copyOf(columns);
    }

    /** True when executing returns rows (RowDescription rather than NoData). */
    public boolean returnsRows() { return !columns.isEmpty(); }

    /** True for an empty statement (only whitespace or comments). */
    public boolean isEmpty() { return commandTag.isEmpty(); }
}
