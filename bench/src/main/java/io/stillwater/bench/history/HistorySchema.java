package io.stillwater.bench.history;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The history file's schema: the tables of both benchmarks, the version the file carries, and the
 * upgrades from older versions (1 -> 2 -> 3), so that a file written by an earlier build opens
 * unchanged in content. Stateless; {@link HistoryStore} calls {@link #prepare} once per open.
 */
final class HistorySchema {
    /** The schema this build writes and reads. */
    static final int VERSION = 3;

    private HistorySchema() {
    }

    /**
     * The parallel benchmark's tables; with {@link #FEATURE} they make schema version 3.
     * Schema version 2 (1 plus {@code scenario_runs.messages}, a JSON array). Every statistic row is keyed by run, scenario, side ('this' or 'other'),
     * run number (1-based, per side) and action; a NULL value is a missing statistic (NaN: no
     * successful query). Maps (params, host) are JSON objects. Thresholds are stored as
     * {@code ratio:F}, {@code abs:D} or {@code ungated}.
     */
    static final List<String> PARALLEL = List.of("""
            CREATE TABLE schema_version (version INTEGER NOT NULL)""", """
            CREATE TABLE runs (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              started TEXT NOT NULL,
              finished TEXT NOT NULL,
              mode TEXT NOT NULL,
              framework_version TEXT NOT NULL,
              this_build TEXT NOT NULL,
              this_target TEXT NOT NULL,
              this_params TEXT NOT NULL,
              other_build TEXT NOT NULL,
              other_target TEXT NOT NULL,
              other_params TEXT NOT NULL,
              runs_per_side INTEGER NOT NULL,
              load_phase_seconds REAL,
              host TEXT NOT NULL)""", """
            CREATE INDEX runs_by_this_build ON runs (this_build, id)""", """
            CREATE TABLE scenarios (
              run_id INTEGER NOT NULL REFERENCES runs (id),
              scenario TEXT NOT NULL,
              version TEXT NOT NULL,
              verdict TEXT NOT NULL,
              reason TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario))""", """
            CREATE TABLE scenario_runs (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL CHECK (side IN ('this', 'other')),
              run_number INTEGER NOT NULL,
              version TEXT NOT NULL,
              status TEXT NOT NULL,
              failure TEXT NOT NULL,
              messages TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario, side, run_number),
              FOREIGN KEY (run_id, scenario) REFERENCES scenarios (run_id, scenario))""", """
            CREATE TABLE stats (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL,
              run_number INTEGER NOT NULL,
              action TEXT NOT NULL,
              stat TEXT NOT NULL,
              value REAL,
              PRIMARY KEY (run_id, scenario, side, run_number, action, stat),
              FOREIGN KEY (run_id, scenario, side, run_number)
                REFERENCES scenario_runs (run_id, scenario, side, run_number))""", """
            CREATE TABLE error_counts (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL,
              run_number INTEGER NOT NULL,
              action TEXT NOT NULL,
              error TEXT NOT NULL,
              count INTEGER NOT NULL,
              PRIMARY KEY (run_id, scenario, side, run_number, action, error),
              FOREIGN KEY (run_id, scenario, side, run_number)
                REFERENCES scenario_runs (run_id, scenario, side, run_number))""", """
            CREATE TABLE histograms (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL,
              run_number INTEGER NOT NULL,
              action TEXT NOT NULL,
              encoded TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario, side, run_number, action),
              FOREIGN KEY (run_id, scenario, side, run_number)
                REFERENCES scenario_runs (run_id, scenario, side, run_number))""", """
            CREATE TABLE verdicts (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              action TEXT NOT NULL,
              stat TEXT NOT NULL,
              this_value REAL,
              other_value REAL,
              threshold TEXT NOT NULL,
              outcome TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario, action, stat),
              FOREIGN KEY (run_id, scenario) REFERENCES scenarios (run_id, scenario))""", """
            CREATE TABLE calibrations (
              scenario TEXT NOT NULL,
              scenario_version TEXT NOT NULL,
              action TEXT NOT NULL,
              stat TEXT NOT NULL,
              relative_spread REAL,
              absolute_spread REAL,
              runs INTEGER NOT NULL,
              run_id INTEGER NOT NULL REFERENCES runs (id),
              PRIMARY KEY (scenario, action, stat))""");

    /**
     * Schema version 3 = 2 plus the feature benchmark's tables. A feature run is a row of {@code runs}
     * with mode FEATURE (its {@code runs_per_side} is {@code --runs-per-scenario}); the parallel
     * bench's lookups skip such rows. Per scenario: its status and the effective parameter values of
     * each side; per side run (this 1, other 1, this 2, ... in the order run, kept by rowid): its
     * outcome (MEASURED, SKIPPED, FAILED), stop reason, failure, messages and read-back parameters;
     * every sample, warm-up ({@code kept} = 0) and kept, with its position {@code seq} in the order
     * measured per metric; per metric the verdict on the pooled kept samples. {@code IF NOT EXISTS}
     * so that the 2 -> 3 upgrade and a fresh file share the statements.
     */
    static final List<String> FEATURE = List.of("""
            CREATE TABLE IF NOT EXISTS feature_scenarios (
              run_id INTEGER NOT NULL REFERENCES runs (id),
              scenario TEXT NOT NULL,
              version TEXT NOT NULL,
              groups TEXT NOT NULL,
              scale REAL NOT NULL,
              status TEXT NOT NULL,
              reason TEXT NOT NULL,
              this_params TEXT NOT NULL,
              other_params TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario))""", """
            CREATE TABLE IF NOT EXISTS feature_side_runs (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL CHECK (side IN ('this', 'other')),
              run_number INTEGER NOT NULL,
              outcome TEXT NOT NULL CHECK (outcome IN ('MEASURED', 'SKIPPED', 'FAILED')),
              stop_reason TEXT,
              failure TEXT NOT NULL,
              messages TEXT NOT NULL,
              effective_params TEXT NOT NULL,
              metrics TEXT NOT NULL,
              elapsed_nanos INTEGER,
              PRIMARY KEY (run_id, scenario, side, run_number),
              FOREIGN KEY (run_id, scenario) REFERENCES feature_scenarios (run_id, scenario))""", """
            CREATE TABLE IF NOT EXISTS feature_samples (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              side TEXT NOT NULL,
              run_number INTEGER NOT NULL,
              metric TEXT NOT NULL,
              seq INTEGER NOT NULL,
              kept INTEGER NOT NULL CHECK (kept IN (0, 1)),
              value REAL,
              PRIMARY KEY (run_id, scenario, side, run_number, metric, seq),
              FOREIGN KEY (run_id, scenario, side, run_number)
                REFERENCES feature_side_runs (run_id, scenario, side, run_number))""", """
            CREATE TABLE IF NOT EXISTS feature_verdicts (
              run_id INTEGER NOT NULL,
              scenario TEXT NOT NULL,
              metric TEXT NOT NULL,
              this_median REAL,
              other_median REAL,
              this_samples INTEGER NOT NULL,
              other_samples INTEGER NOT NULL,
              threshold REAL NOT NULL,
              outcome TEXT NOT NULL,
              text TEXT NOT NULL,
              PRIMARY KEY (run_id, scenario, metric),
              FOREIGN KEY (run_id, scenario) REFERENCES feature_scenarios (run_id, scenario))""");

    /**
     * Creates the tables in an empty file, or checks and upgrades the schema of an existing one.
     *
     * @throws HistoryException the file is not a bench history, or a newer build wrote it
     */
    static void prepare(Connection db, Path file) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA foreign_keys = ON");
            // two bench processes sharing a history file wait for each other's transaction
            s.execute("PRAGMA busy_timeout = 30000");
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            tables.remove("sqlite_sequence");
            if (tables.isEmpty()) {
                Db.inTransaction(db, () -> {
                    for (String ddl : PARALLEL) {
                        s.execute(ddl);
                    }
                    for (String ddl : FEATURE) {
                        s.execute(ddl);
                    }
                    return s.execute("INSERT INTO schema_version (version) VALUES (" + VERSION + ")");
                });
                return;
            }
            if (!tables.contains("schema_version")) {
                throw new HistoryException("the file " + file + " is a SQLite database but not a stillwater bench"
                        + " results history (it has no schema_version table); choose another history file");
            }
            int version;
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
                version = rs.next() ? rs.getInt(1) : 0;
            }
            if (version > VERSION) {
                throw new HistoryException("the results history " + file + " has schema version " + version
                        + ", newer than the version " + VERSION + " this build of stillwater bench understands;"
                        + " use the newer build that wrote it, or choose another history file");
            }
            if (version < 1) {
                throw new HistoryException("the results history " + file + " has no valid schema version ("
                        + version + "); choose another history file");
            }
            if (version == 1) {
                // 1 -> 2: each run's messages (e.g. the system parameters in effect); older runs have none
                Db.inTransaction(db, () -> {
                    s.execute("ALTER TABLE scenario_runs ADD COLUMN messages TEXT NOT NULL DEFAULT '[]'");
                    return s.execute("INSERT INTO schema_version (version) VALUES (2)");
                });
                version = 2;
            }
            if (version == 2) {
                // 2 -> 3: the feature benchmark's tables; the parallel bench's rows are untouched
                Db.inTransaction(db, () -> {
                    for (String ddl : FEATURE) {
                        s.execute(ddl);
                    }
                    return s.execute("INSERT INTO schema_version (version) VALUES (3)");
                });
            }
        }
    }
}
