package io.stillwater.engine.session;

import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Set;

/**
 * A parsed and described statement, ready to execute any number of times with
 * parameters. {@code paramTypes} has one entry per {@code $n}; {@code columns} is empty
 * for statements that return no rows. Immutable; owned by one session.
 *
 * <p>{@code plan} is the statement as the engine planned it; clients (the wire layer)
 * must treat it as opaque. Another {@link Session} implementation (a test double) may
 * leave it null and keep its own plans. {@code references} are the relations the
 * statement names directly (privileges are checked on them when it executes).
 */
public record PreparedStatement(String sql, String commandTag, List<SqlType> paramTypes,
                                List<ResultColumn> columns, Statement plan, Set<String> references) {
    public PreparedStatement {
        paramTypes = List.copyOf(paramTypes);
        columns = List.copyOf(columns);
        references = Set.copyOf(references);
    }

    /** A statement that names no relations (or whose session keeps its own plans). */
    public PreparedStatement(String sql, String commandTag, List<SqlType> paramTypes, List<ResultColumn> columns,
                             Statement plan) {
        this(sql, commandTag, paramTypes, columns, plan, Set.of());
    }

    /** True when executing returns rows (RowDescription rather than NoData). */
    public boolean returnsRows() { return !columns.isEmpty(); }

    /** True for an empty statement (only whitespace or comments). */
    public boolean isEmpty() { return commandTag.isEmpty(); }
}
