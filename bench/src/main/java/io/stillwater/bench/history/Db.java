package io.stillwater.bench.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * The row helpers both {@link HistoryStore} and {@link FeatureTables} use: one transaction shape,
 * NaN-as-NULL doubles and the JSON text columns. Stateless; the caller owns the connection.
 */
final class Db {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Db() {
    }

    /** Work done inside a transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction on {@code db}: commits when it returns, rolls back and
     * rethrows when it throws, and leaves the connection in auto-commit mode either way.
     */
    static <T> T inTransaction(Connection db, Work<T> work) throws SQLException {
        db.setAutoCommit(false);
        try {
            T result = work.run();
            db.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
    }

    /** Binds a double, storing NaN and the infinities (no value) as NULL. */
    /** Sets parameters 1..n of {@code p} to {@code values} (Long, Integer, String: what the tables hold). */
    static void bind(PreparedStatement p, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) p.setObject(i + 1, values[i]);
    }

    static void setDouble(PreparedStatement p, int i, double v) throws SQLException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            p.setNull(i, Types.REAL);
        } else {
            p.setDouble(i, v);
        }
    }

    /** Reads a double stored by {@link #setDouble}: NULL comes back as NaN. */
    static double getDouble(ResultSet rs, int i) throws SQLException {
        double v = rs.getDouble(i);
        return rs.wasNull() ? Double.NaN : v;
    }

    /** The JSON text of a value (a list or a map; a map keeps its iteration order). */
    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses a stored JSON column; {@code what} names it in the error (e.g. "a stored map"), which tells
     * the user the history file is damaged.
     */
    static <T> T fromJson(String text, TypeReference<T> type, String what) {
        try {
            return JSON.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new HistoryException(what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }
}
