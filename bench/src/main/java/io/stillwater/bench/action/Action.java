package io.stillwater.bench.action;

import java.util.List;
import java.util.Objects;

/**
 * What a load loop does once: one query or script against the target, in one of four connection
 * disciplines. An action is a pure description; the runner turns it into an invoker that owns the
 * connections. Its {@link #name()} (SQL plus a kind suffix) identifies its statistics, thresholds
 * and guarantees, and is unique within a scenario. A query action may carry {@link ExpectedRows}
 * ({@code expected}, null when unchecked; set with {@code expecting}): a different answer counts as
 * a failed query.
 */
public sealed interface Action
        permits Action.StandaloneQuery, Action.ReuseConnQuery, Action.PooledQuery, Action.ScriptAction {

    /** SQL plus kind suffix, e.g. {@code SELECT 1 (pooled)}. */
    String name();

    /** A new connection for every execution; connecting and {@code setup} are inside the timed span. */
    record StandaloneQuery(String sql, List<String> setup, ExpectedRows expected) implements Action {
        public StandaloneQuery {
            sql = requireSql(sql);
            setup = List.copyOf(setup);
        }

        public StandaloneQuery(String sql, List<String> setup) {
            this(sql, setup, null);
        }

        /** The same action, with every answer checked against {@code rows}. */
        public StandaloneQuery expecting(ExpectedRows rows) {
            return new StandaloneQuery(sql, setup, rows);
        }

        @Override
        public String name() {
            return sql + " (standalone)";
        }
    }

    /**
     * One connection per loop, opened (and {@code setup} run) outside timing. Executions on one
     * connection are serialized: an open loop on it has concurrency 1 and the wait is timed.
     */
    record ReuseConnQuery(String sql, List<String> setup, ExpectedRows expected) implements Action {
        public ReuseConnQuery {
            sql = requireSql(sql);
            setup = List.copyOf(setup);
        }

        public ReuseConnQuery(String sql, List<String> setup) {
            this(sql, setup, null);
        }

        /** The same action, with every answer checked against {@code rows}. */
        public ReuseConnQuery expecting(ExpectedRows rows) {
            return new ReuseConnQuery(sql, setup, rows);
        }

        @Override
        public String name() {
            return sql + " (reuse connection)";
        }
    }

    /**
     * Borrows a connection from the scenario pool (declared with {@code Scenario.pool}); waiting
     * for a free connection is inside the timed span.
     */
    record PooledQuery(String sql, ExpectedRows expected) implements Action {
        public PooledQuery {
            sql = requireSql(sql);
        }

        public PooledQuery(String sql) {
            this(sql, null);
        }

        /** The same action, with every answer checked against {@code rows}. */
        public PooledQuery expecting(ExpectedRows rows) {
            return new PooledQuery(sql, rows);
        }

        @Override
        public String name() {
            return sql + " (pooled)";
        }
    }

    /**
     * Several statements in order on one connection per loop (opened outside timing, serialized
     * like {@link ReuseConnQuery}); the whole script is one timed sample.
     */
    record ScriptAction(List<String> statements) implements Action {
        public ScriptAction {
            statements = List.copyOf(statements);
            if (statements.isEmpty()) {
                throw new IllegalArgumentException("a script action needs at least one statement");
            }
            statements.forEach(Action::requireSql);
        }

        @Override
        public String name() {
            return String.join("; ", statements) + " (script)";
        }
    }

    private static String requireSql(String sql) {
        Objects.requireNonNull(sql, "sql");
        String s = sql.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("an action needs non-empty SQL");
        }
        return s;
    }
}
