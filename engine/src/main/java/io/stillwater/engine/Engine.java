package io.stillwater.engine;

import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.sql.planner.CachedPlanning;
import io.stillwater.engine.sql.planner.PlanCache;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.auth.RoleDirectory;
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
    /** Sessions open now, every user's; see {@link #admit}. */
    private final AtomicInteger openSessions = new AtomicInteger();
    /** The plans every session shares (see {@link PlanCache}); thread-safe. */
    private final CachedPlanning plans;

    private Engine(EngineConfig config, Coordinator coordinator) {
        this.config = config;
        this.coordinator = coordinator;
        this.plans = new CachedPlanning(new PlanCache(
                () -> coordinator.systemParameters().get(Params.PLAN_CACHE_MAX_ENTRIES)));
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
        ensureRole(user);
        admit(user);
        try {
            StatementPlanner planner = new StatementPlanner(UtilityParser::parse, () -> coordinator.roles().security(),
                    () -> coordinator.systemParameters().get(Params.ENABLE_FAST_PATH_PLANNING));
            Session session = new EngineSession(coordinator, planner, plans, user, database == null ? "materialize" : database,
                    options);
            return new CountedSession(session, openSessions);
        } catch (RuntimeException | Error e) {
            openSessions.decrementAndGet();
            throw e;
        }
    }

    /**
     * Makes sure {@code user} is a role (authentication let the connection in, so under
     * trust it is created now), so what it creates has an owner in the role catalog. A
     * log that cannot be written (a stopped engine) leaves it unknown: it then holds only
     * PUBLIC's privileges, and sessions fail on their own when they write.
     */
    private void ensureRole(String user) {
        if (coordinator.roles().find(user).isPresent()) return;
        try {
            coordinator.roles().ensureForTrust(user);
        } catch (SqlException e) {
            // See above: the session still opens, with no privileges of its own.
        }
    }

    /**
     * Counts a new session against {@code max_connections}, as PostgreSQL does: every
     * session counts, the superuser's too; ordinary users may take all but
     * {@code superuser_reserved_connections} slots, the superuser all of them, so an
     * operator can still connect (to raise the limit) when users have taken theirs. The
     * reservation never takes the last slot: ordinary users always get at least one.
     * Refusals are 53300 with PostgreSQL's wording.
     */
    private void admit(String user) {
        SystemParameters params = coordinator.systemParameters();
        int max = params.get(Params.MAX_CONNECTIONS);
        int reserved = Math.min(params.get(Params.SUPERUSER_RESERVED_CONNECTIONS), max - 1);
        boolean superuser = Roles.isSuperuser(user);
        int limit = superuser ? max : max - reserved;
        while (true) {
            int now = openSessions.get();
            if (now >= limit) {
                String detail = "max_connections is " + max + ", of which " + reserved
                        + " are reserved for mz_system (superuser_reserved_connections); " + now + " sessions are open.";
                if (!superuser && reserved > 0) {
                    throw new SqlException(SqlState.TOO_MANY_CONNECTIONS,
                            "remaining connection slots are reserved for roles with the SUPERUSER attribute", detail,
                            "Close idle sessions, or raise max_connections with ALTER SYSTEM SET as mz_system.");
                }
                throw new SqlException(SqlState.TOO_MANY_CONNECTIONS, "sorry, too many clients already", detail,
                        "Close idle sessions, or raise max_connections.");
            }
            if (openSessions.compareAndSet(now, now + 1)) return;
        }
    }

    /**
     * The roles authentication checks connections against: the durable role catalog
     * ({@code mz_system} is the built-in superuser; {@code ensureForTrust} creates a
     * missing login role, as Materialize does on a user's first connection).
     */
    public RoleDirectory roles() { return coordinator.roles(); }

    /** Sessions open now (counted against max_connections), the superuser's included. */
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
        public PreparedStatement prepareImmediate(String sql, List<SqlType> paramTypeHints) {
            return inner.prepareImmediate(sql, paramTypeHints);
        }

        @Override
        public ExecutionResult executeImmediate(PreparedStatement stmt, List<Object> params) {
            return inner.executeImmediate(stmt, params);
        }

        @Override
        public List<String> splitStatements(String sql) { return inner.splitStatements(sql); }

        @Override
        public void statementRejected() { inner.statementRejected(); }

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
