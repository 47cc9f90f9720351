package io.stillwater.engine;

import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.sql.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.Roles;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.engine.session.TransactionStatus;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The database: opened on a data directory, it recovers the catalog and tables from the
 * log and then serves {@link Session}s. Thread-safe: any number of sessions may run
 * concurrently; the {@link Coordinator} sequences their writes.
 */
public final class Engine implements AutoCloseable {
    private final EngineConfig config;
    private final Coordinator coordinator;
    /** Non-superuser sessions open now; see {@link #admit}. */
    private final AtomicInteger openSessions = new AtomicInteger();

    private Engine(EngineConfig config, Coordinator coordinator) {
        this.config = config;
        this.coordinator = coordinator;
    }

    /** Opens (recovering, if the directory holds data) the engine at {@code config.dataDir()}. */
    public static Engine open(EngineConfig config) {
        return open(config, ComputeReplica::new);
    }

    /**
     * Opens the engine with replicas made by {@code provisioner} (called for every
     * replica at start and whenever one is created; see {@link ReplicaSpec}).
     */
    public static Engine open(EngineConfig config, ReplicaProvisioner provisioner) {
        return new Engine(config, Coordinator.open(config, provisioner));
    }

    /**
     * A new session for {@code user}. Any database name is accepted (there is one
     * database; clients such as psql default it to the user name); {@code options} are
     * the client's startup parameters (application_name, TimeZone, ...).
     */
    public Session connect(String user, String database, Map<String, String> options) {
        boolean counted = admit(user);
        try {
            StatementPlanner planner = new StatementPlanner(UtilityParser::parse);
            Session session = new EngineSession(coordinator, planner, user, database == null ? "materialize" : database,
                    options);
            return counted ? new CountedSession(session, openSessions) : session;
        } catch (RuntimeException e) {
            if (counted) openSessions.decrementAndGet();
            throw e;
        }
    }

    /**
     * Counts a new session against {@code max_connections}; false for the superuser, who
     * is neither counted nor refused (so an operator can always connect to raise the
     * limit). Refusals are 53300 with Materialize's wording.
     */
    private boolean admit(String user) {
        if (Roles.isSuperuser(user)) return false;
        int limit = coordinator.systemParameters().get(Params.MAX_CONNECTIONS);
        int now = openSessions.incrementAndGet();
        if (now > limit) {
            openSessions.decrementAndGet();
            throw new SqlException(SqlState.TOO_MANY_CONNECTIONS,
                    "creating connection would violate max_connections limit (desired: " + now + ", limit: " + limit
                            + ", current: " + (now - 1) + ")");
        }
        return true;
    }

    /** Sessions counted against max_connections and not yet closed. */
    public int openSessions() { return openSessions.get(); }

    /** The live system parameters (see {@link SystemParameters}). */
    public SystemParameters systemParameters() { return coordinator.systemParameters(); }

    public EngineConfig config() { return config; }

    /** The write and read sequencer; for tools and tests inside the engine module. */
    public Coordinator coordinator() { return coordinator; }

    @Override
    public void close() {
        coordinator.close();
    }

    /** A session that gives back its max_connections slot when closed (once, however often closed). */
    private static final class CountedSession implements Session {
        private final Session inner;
        private final AtomicInteger openSessions;
        private final AtomicBoolean closed = new AtomicBoolean();

        CountedSession(Session inner, AtomicInteger openSessions) {
            this.inner = inner;
            this.openSessions = openSessions;
        }

        @Override
        public PreparedStatement prepare(String sql, List<SqlType> paramTypeHints) {
            return inner.prepare(sql, paramTypeHints);
        }

        @Override
        public ExecutionResult execute(PreparedStatement stmt, List<Object> params) { return inner.execute(stmt, params); }

        @Override
        public List<String> splitStatements(String sql) { return inner.splitStatements(sql); }

        @Override
        public void cancel() { inner.cancel(); }

        @Override
        public TransactionStatus transactionStatus() { return inner.transactionStatus(); }

        @Override
        public void sync() { inner.sync(); }

        @Override
        public Map<String, String> startupParameters() { return inner.startupParameters(); }

        @Override
        public String user() { return inner.user(); }

        @Override
        public void close() {
            try {
                inner.close();
            } finally {
                if (closed.compareAndSet(false, true)) openSessions.decrementAndGet();
            }
        }
    }
}
