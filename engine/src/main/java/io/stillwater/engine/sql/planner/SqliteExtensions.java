package io.stillwater.engine.sql.planner;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.parse.SqlLexer;
import io.stillwater.engine.sql.parse.Token;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recognises SQLite syntax that PostgreSQL (and so Stillwater) deliberately does not
 * support, so that a statement using it is reported as an unsupported feature (0A000,
 * naming the extension) rather than as a bare syntax error. Scripts written for SQLite,
 * like the sqllogictest corpus, then show these records as unsupported with a reason.
 *
 * <p>Consulted only after the SQL front end has already failed with a syntax error, so
 * it costs nothing on valid statements.
 */
final class SqliteExtensions {
    private SqliteExtensions() {}

    static Optional<SqlException> explain(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (SqlException e) {
            return Optional.empty();
        }
        if (tokens.size() >= 3 && tokens.get(0).isWord("insert") && tokens.get(1).isWord("or")) {
            String action = tokens.get(2).text().toUpperCase(Locale.ROOT);
            return Optional.of(unsupported("INSERT OR " + action + " (a SQLite extension) is not supported",
                    "Use INSERT, or DELETE and INSERT in one transaction."));
        }
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (tokens.get(i).isWord("in") && tokens.get(i + 1).isSymbol("(") && tokens.get(i + 2).isSymbol(")")) {
                return Optional.of(unsupported("an empty IN list (a SQLite extension) is not supported",
                        "PostgreSQL requires at least one value: x IN () is always false, x NOT IN () always true."));
            }
        }
        return Optional.empty();
    }

    private static SqlException unsupported(String message, String hint) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, message, null, hint);
    }
}
