package io.stillwater.bench.runner;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.action.WrongResultException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Executes one statement and reads every result to the end, so the timed span covers the whole answer. */
final class SqlExecution {
    private SqlExecution() {
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

    /**
     * Executes {@code sql}, reading every result to the end; when {@code expected} is non-null the
     * first result set's rows are collected as text and checked (inside the caller's timed span).
     *
     * @throws WrongResultException the answer differs from {@code expected}
     */
    static void execute(Connection c, String sql, ExpectedRows expected) throws SQLException, WrongResultException {
        if (expected == null) {
            execute(c, sql);
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            boolean isResultSet = st.execute(sql);
            boolean first = true;
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = st.getResultSet()) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            if (first) {
                                List<String> row = new ArrayList<>(n);
                                for (int i = 1; i <= n; i++) {
                                    row.add(rs.getString(i));
                                }
                                rows.add(row);
                            }
                        }
                    }
                    first = false;
                } else if (st.getUpdateCount() == -1) {
                    break;
                }
                isResultSet = st.getMoreResults();
            }
        }
        var mismatch = expected.mismatch(rows);
        if (mismatch.isPresent()) {
            throw new WrongResultException(mismatch.get());
        }
    }

    /** A connection the driver reports broken (SQLSTATE class 08) must not be reused. */
    static boolean connectionBroken(Throwable t) {
        return SqlErrors.sqlState(t).startsWith("08");
    }
}
