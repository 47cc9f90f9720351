package io.stillwater.bench.runner;

import java.sql.SQLException;

/** An untimed phase statement failed; the message names the statement and the SQLSTATE. */
final class StatementFailedException extends Exception {
    StatementFailedException(String statement, SQLException cause) {
        super("statement `" + statement + "`: " + SqlErrors.describe(cause), cause);
    }
}
