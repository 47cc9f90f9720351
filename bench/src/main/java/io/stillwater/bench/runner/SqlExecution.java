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

/**
 * Executes one statement and reads every result to the end, so the timed span covers the whole
 * answer: the one way both benches send a measured statement. Stateless.
 */
public final class SqlExecution {
    private SqlExecution() {
    }

    static void execute(Connection c, String sql) throws SQLException {
        execute(c, sql, false);
    }

    /**
     * Executes {@code sql} on {@code c}, reading every result (row sets and update counts) to the
     * end.
     *
     * @param collectFirst whether to keep the rows of the first result set, each column as text
     *     (SQL NULL as null)
     * @return the first result set's rows when {@code collectFirst}, else empty
     */
    public static List<List<String>> execute(Connection c, String sql, boolean collectFirst) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            boolean isResultSet = st.execute(sql);
            boolean first = true;
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = st.getResultSet()) {
                        boolean keep = collectFirst && first;
                        int n = keep ? rs.getMetaData().getColumnCount() : 0;
                        while (rs.next()) {
                            if (keep) {
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
                    return rows;
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
        List<List<String>> rows = execute(c, sql, expected != null);
        if (expected == null) {
            return;
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
