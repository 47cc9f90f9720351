package io.stillwater.bench.action;

import java.sql.SQLException;

/** An untimed phase statement failed; the message names the statement and the SQLSTATE. */
public final class StatementFailedException extends Exception {
    public StatementFailedException(String statement, SQLException cause) {
        super("statement `" + statement + "`: " + SqlErrors.describe(cause), cause);
    }
}
