package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Small JDBC helpers shared by the measurements. */
final class Sql {
    private Sql() {}

    static void exec(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) s.execute(sql);
        }
    }

    /** The first column of the first row as a long; fails when there is no row. */
    static long scalarLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) throw new SQLException("no row from: " + sql);
            return rs.getLong(1);
        }
    }

    /** Runs a prepared query and returns its number of rows. */
    static int drain(PreparedStatement ps) throws SQLException {
        int n = 0;
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) n++;
        }
        return n;
    }

    /**
     * Fills {@code table (id bigint, payload text)} with ids {@code 1..rows} and payloads
     * {@code 'payload-<id>'}, in INSERT ... SELECT statements of at most {@code chunk} rows
     * so that no single write is unbounded.
     */
    static void fill(Connection c, String table, long rows, long chunk) throws SQLException {
        for (long from = 1; from <= rows; from += chunk) {
            long to = Math.min(rows, from + chunk - 1);
            exec(c, "INSERT INTO " + table + " SELECT g::bigint, 'payload-' || g::text FROM generate_series("
                    + from + ", " + to + ") AS g");
        }
    }

    static String payload(long id) { return "payload-" + id; }
}
