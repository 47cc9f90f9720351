package io.stillwater.slt;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * An error a target returned, in the shape the scripts match against.
 *
 * <p>{@code lines} mirror how Materialize's runner (tokio-postgres) prints a server error:
 * {@code db error: ERROR: <message>}, then {@code DETAIL: ...} and {@code HINT: ...} lines, so
 * that {@code simple} blocks and error regexes written for Materialize match unchanged. Errors
 * that did not come from the server (I/O, protocol) print their JDBC message.
 */
public record SqlError(String sqlState, String message, List<String> lines) {
    public SqlError {
        sqlState = sqlState == null ? "" : sqlState;
        lines = List.copyOf(lines);
    }

    public static SqlError of(SQLException e) {
        if (e instanceof PSQLException pe && pe.getServerErrorMessage() != null) {
            ServerErrorMessage m = pe.getServerErrorMessage();
            List<String> lines = new ArrayList<>();
            String severity = m.getSeverity() == null ? "ERROR" : m.getSeverity();
            lines.add("db error: " + severity + ": " + m.getMessage());
            if (m.getDetail() != null) {
                lines.add("DETAIL: " + m.getDetail());
            }
            if (m.getHint() != null) {
                lines.add("HINT: " + m.getHint());
            }
            return new SqlError(m.getSQLState(), m.getMessage(), lines);
        }
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new SqlError(e.getSQLState(), msg, List.of(msg.split("\n")));
    }

    /** The full text an error regex is searched in. */
    public String text() {
        return String.join("\n", lines);
    }

    /** True when this is SQLSTATE 0A000, feature_not_supported. */
    public boolean isUnsupported() {
        return "0A000".equals(sqlState);
    }

    /** One line for reports: {@code [SQLSTATE] message}. */
    public String summary() {
        return (sqlState.isEmpty() ? "" : "[" + sqlState + "] ") + message;
    }
}
