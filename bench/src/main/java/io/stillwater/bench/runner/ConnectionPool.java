package io.stillwater.bench.runner;

import io.stillwater.bench.action.ExpectedRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The scenario's pool for pooled actions: {@code size} connections, each running the pool setup
 * once when opened (outside timing). Pooled queries block in {@link #take()} (timed); a slot whose
 * connection broke is reopened by its next taker, inside that query's timed span, because the
 * reconnect is real waiting that query experienced. Thread-safe.
 */
final class ConnectionPool implements AutoCloseable {
    /** A pool position; {@code connection} is null after a break, until the next taker reopens it. */
    static final class Slot {
        Connection connection;
    }

    private final Target target;
    private final List<String> setup;
    private final BlockingQueue<Slot> free;
    private final List<Slot> all = new ArrayList<>();

    ConnectionPool(Target target, int size, List<String> setup) throws SQLException {
        this.target = target;
        this.setup = List.copyOf(setup);
        this.free = new ArrayBlockingQueue<>(size);
        try {
            for (int i = 0; i < size; i++) {
                Slot s = new Slot();
                s.connection = open();
                all.add(s);
                free.add(s);
            }
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private Connection open() throws SQLException {
        Connection c = target.connect();
        try {
            for (String s : setup) {
                SqlExecution.execute(c, s);
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Runs {@code sql} on a pooled connection, waiting for one if all are busy. */
    void execute(String sql) throws Exception {
        execute(sql, null);
    }

    /** As {@link #execute(String)}, checking the answer against {@code expected} when non-null. */
    void execute(String sql, ExpectedRows expected) throws Exception {
        Slot slot = free.take();
        try {
            if (slot.connection == null) {
                slot.connection = open();
            }
            SqlExecution.execute(slot.connection, sql, expected);
        } catch (SQLException e) {
            if (SqlExecution.connectionBroken(e) && slot.connection != null) {
                closeQuietly(slot.connection);
                slot.connection = null;
            }
            throw e;
        } finally {
            free.add(slot);
        }
    }

    @Override
    public void close() {
        synchronized (all) {
            for (Slot s : all) {
                if (s.connection != null) {
                    closeQuietly(s.connection);
                    s.connection = null;
                }
            }
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing a broken connection: nothing more to release
        }
    }
}
