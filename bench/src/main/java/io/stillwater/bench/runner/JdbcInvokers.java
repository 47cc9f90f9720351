package io.stillwater.bench.runner;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.load.Invoker;
import io.stillwater.bench.load.InvokerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** Turns an action into invokers against a target: the JDBC half of every action kind. */
final class JdbcInvokers {
    private JdbcInvokers() {
    }

    /** @param pool the scenario pool, opened on first use by a pooled action */
    static InvokerFactory of(Action action, Target target, Supplier<ConnectionPool> pool) {
        return switch (action) {
            case Action.StandaloneQuery q -> () -> () -> {
                try (Connection c = target.connect()) {
                    for (String s : q.setup()) {
                        SqlExecution.execute(c, s);
                    }
                    SqlExecution.execute(c, q.sql(), q.expected());
                }
            };
            case Action.ReuseConnQuery q -> () -> new Serialized(target, q.setup(), List.of(q.sql()), q.expected());
            case Action.ScriptAction s -> () -> new Serialized(target, List.of(), s.statements(), null);
            case Action.PooledQuery q -> {
                ConnectionPool p = pool.get();
                yield () -> () -> p.execute(q.sql(), q.expected());
            }
        };
    }

    /**
     * One connection, opened with its setup outside timing; executions serialize on a fair lock
     * (the wait is timed). A broken connection is reopened by the next execution.
     */
    private static final class Serialized implements Invoker {
        private final Target target;
        private final List<String> setup;
        private final List<String> statements;
        private final ExpectedRows expected; // checks the last statement; null: unchecked
        private final ReentrantLock lock = new ReentrantLock(true);
        private Connection connection; // guarded by lock

        Serialized(Target target, List<String> setup, List<String> statements,
                ExpectedRows expected) throws SQLException {
            this.target = target;
            this.expected = expected;
            this.setup = setup;
            this.statements = statements;
            this.connection = open();
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

        @Override
        public void invoke() throws Exception {
            lock.lock();
            try {
                if (connection == null) {
                    connection = open();
                }
                for (int i = 0; i < statements.size(); i++) {
                    SqlExecution.execute(connection, statements.get(i), i == statements.size() - 1 ? expected : null);
                }
            } catch (SQLException e) {
                if (SqlExecution.connectionBroken(e) && connection != null) {
                    try {
                        connection.close();
                    } catch (SQLException ignored) {
                        // already broken
                    }
                    connection = null;
                }
                throw e;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() throws SQLException {
            lock.lock();
            try {
                if (connection != null) {
                    connection.close();
                    connection = null;
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
