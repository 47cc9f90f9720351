package io.stillwater.bench.action;

import java.sql.SQLException;

/** The text a failure is counted under: "SQLSTATE: first line of the message". */
public final class SqlErrors {
    private SqlErrors() {
    }

    public static String describe(Throwable t) {
        if (t instanceof StatementFailedException || t instanceof WrongResultException) {
            return t.getMessage();
        }
        if (t instanceof SQLException e) {
            String state = e.getSQLState() == null ? "?????" : e.getSQLState();
            return state + ": " + firstLine(e.getMessage()).replaceFirst("^(ERROR|FATAL): ", "");
        }
        return t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
    }

    public static String sqlState(Throwable t) {
        return t instanceof SQLException e && e.getSQLState() != null ? e.getSQLState() : "";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
