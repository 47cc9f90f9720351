package io.stillwater.engine.session;

import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Map;

/**
 * One client's connection to the engine: the API the wire layer (and embedded users)
 * speak. A session is used by one thread at a time (its connection's), except
 * {@link #cancel}, which any thread may call.
 *
 * <p>Errors are thrown as {@link io.stillwater.engine.error.SqlException} with a
 * SQLSTATE. After an error inside an explicit transaction the session is
 * {@link TransactionStatus#FAILED} until ROLLBACK, as in PostgreSQL.
 */
public interface Session extends AutoCloseable {
    /**
     * Parses, plans and describes one statement. {@code paramTypeHints} are the types
     * the client declared for {@code $1..$n} (null or missing entries: infer).
     */
    PreparedStatement prepare(String sql, List<SqlType> paramTypeHints);

    /**
     * {@link #prepare} only if the statement's plan is cached already (no parsing or planning
     * beyond a lookup and binding literals), else null with nothing done. Lets the wire
     * server take a repeated statement's Parse or simple Query on its event loop.
     */
    default PreparedStatement prepareImmediate(String sql, List<SqlType> paramTypeHints) { return null; }

    /**
     * Executes a prepared statement. {@code params} are already decoded to datums of
     * {@code stmt.paramTypes()} (null for SQL NULL).
     */
    ExecutionResult execute(PreparedStatement stmt, List<Object> params);

    /**
     * Executes {@code stmt} only if it finishes now on the calling thread, without waiting
     * and within a small bound of work (the engine's: a fast-path lookup outside a
     * transaction block, on an index readable at its read time already, visiting a few
     * hundred rows at most). Otherwise returns null, having done nothing a client could
     * observe, and the caller runs {@link #execute} where blocking is allowed. Lets the
     * wire server answer point reads on its event loop, with no thread hand-off.
     */
    default ExecutionResult executeImmediate(PreparedStatement stmt, List<Object> params) { return null; }

    /** Parses, plans and executes one statement without parameters (simple protocol). */
    default ExecutionResult execute(String sql) {
        PreparedStatement stmt = prepare(sql, List.of());
        return execute(stmt, List.of());
    }

    /**
     * Splits a simple-protocol query string into statements, honouring quotes, dollar
     * quotes and comments. Empty statements between semicolons are dropped; a string
     * with no statements gives an empty list.
     */
    List<String> splitStatements(String sql);

    /**
     * Cancels the statement running now, if any: it fails with 57014 "canceling
     * statement due to user request". Thread-safe; a no-op when idle.
     */
    void cancel();

    TransactionStatus transactionStatus();

    /**
     * The wire layer failed a statement before this session saw it (a message whose bytes
     * are not valid text): an explicit transaction is then FAILED, as after any error.
     */
    default void statementRejected() {}

    /**
     * Called by the wire layer when the extended protocol's implicit transaction of a
     * Sync ends, and after each simple-protocol query message: commits/ends an implicit
     * transaction, leaves an explicit one open.
     */
    void sync();

    /** The ParameterStatus values to report at startup (server_version, TimeZone, ...). */
    Map<String, String> startupParameters();

    /** The user this session authenticated as. */
    String user();

    @Override
    void close();
}
