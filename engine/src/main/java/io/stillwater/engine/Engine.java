package io.stillwater.engine;

import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.sql.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import java.util.Map;

/**
 * The database: opened on a data directory, it recovers the catalog and tables from the
 * log and then serves {@link Session}s. Thread-safe: any number of sessions may run
 * concurrently; the {@link Coordinator} sequences their writes.
 */
public final class Engine implements AutoCloseable {
    private final EngineConfig config;
    private final Coordinator coordinator;

    private Engine(EngineConfig config, Coordinator coordinator) {
        this.config = config;
        this.coordinator = coordinator;
    }

    /** Opens (recovering, if the directory holds data) the engine at {@code config.dataDir()}. */
    public static Engine open(EngineConfig config) {
        return new Engine(config, Coordinator.open(config, new ComputeReplica(config.workers())));
    }

    /**
     * A new session for {@code user}. Any database name is accepted (there is one
     * database; clients such as psql default it to the user name); {@code options} are
     * the client's startup parameters (application_name, TimeZone, ...).
     */
    public Session connect(String user, String database, Map<String, String> options) {
        StatementPlanner planner = new StatementPlanner(UtilityParser::parse);
        return new EngineSession(coordinator, planner, user, database == null ? "materialize" : database, options);
    }

    public EngineConfig config() { return config; }

    /** The write and read sequencer; for tools and tests inside the engine module. */
    public Coordinator coordinator() { return coordinator; }

    @Override
    public void close() {
        coordinator.close();
    }
}
