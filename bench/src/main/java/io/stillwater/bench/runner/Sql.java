package io.stillwater.bench.runner;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Executes one statement and reads every result to the end, so the timed span covers the whole answer. */
final class Sql {
    private Sql() {
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            boolean isResultSet = st.execute(sql);
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = st.getResultSet()) {
                        while (rs.next()) {
                            // drain
                        }
                    }
                } else if (st.getUpdateCount() == -1) {
                    return;
                }
                isResultSet = st.getMoreResults();
            }
        }
    }

    /** A connection the driver reports broken (SQLSTATE class 08) must not be reused. */
    static boolean connectionBroken(Throwable t) {
        return SqlErrors.sqlState(t).startsWith("08");
    }
}
