package io.stillwater.bench.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The results history: one SQLite file holding every recorded bench run (metadata, per-run
 * statistics, encoded histograms, verdicts) and the calibrations of {@code --calibrate}. The file
 * carries its schema version; a file written by a newer build is refused rather than misread.
 *
 * <p>Not thread-safe: one store owns one JDBC connection; use it from one thread. Each
 * {@link #recordRun} is one transaction, so a crash never leaves half a run behind.
 */
public final class HistoryStore implements AutoCloseable {
    /** The schema this build writes and reads; see {@link #SCHEMA} for its tables. */
    public static final int SCHEMA_VERSION = 3;

    /**
     * The parallel benchmark's tables; with {@link #FEATURE_SCHEMA} they make schema version 3.
     * Schema version 2 (1 plus {@code scenario_runs.messages}, a JSON array). Every statistic row is keyed by run, scenario, side ('this' or 'other'),
     * run number (1-based, per side) and action; a NULL value is a missing statistic (NaN: no
     * successful query). Maps (params, host) are JSON objects. Thresholds are stored as
     * {@code ratio:F}, {@code abs:D} or {@code ungated}.
     */
    static final List<String> SCHEMA = List.of("""
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
    static final List<String> FEATURE_SCHEMA = List.of("""
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

    /** Stored beside the {@link Stat}s so that {@link ActionStatistics} round-trips exactly. */
    private static final String WALL_SECONDS = "wall_seconds";

    private final Path file;
    private final Connection db;

    private HistoryStore(Path file, Connection db) {
        this.file = file;
        this.db = db;
    }

    /**
     * Opens the history file, creating it (and its directory) with the current schema if it does
     * not exist.
     *
     * @throws HistoryException if the file is not a SQLite database, not a bench history, or was
     *     written by a newer build (schema version above {@link #SCHEMA_VERSION})
     */
    public static HistoryStore open(Path file) {
        Path abs = file.toAbsolutePath();
        try {
            if (abs.getParent() != null) {
                Files.createDirectories(abs.getParent());
            }
        } catch (IOException e) {
            throw new HistoryException("cannot create the directory of the results history " + abs + ": " + e, e);
        }
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + abs);
        } catch (SQLException e) {
            throw new HistoryException("cannot open the results history " + abs + ": " + e.getMessage(), e);
        }
        try {
            HistoryStore store = new HistoryStore(abs, c);
            store.prepareSchema();
            return store;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new HistoryException("the results history " + abs + " is not a readable SQLite database ("
                    + e.getMessage() + "); choose another history file", e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    public Path file() {
        return file;
    }

    private void prepareSchema() throws SQLException {
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
                    for (String ddl : SCHEMA) {
                        s.execute(ddl);
                    }
                    for (String ddl : FEATURE_SCHEMA) {
                        s.execute(ddl);
                    }
                    return s.execute("INSERT INTO schema_version (version) VALUES (" + SCHEMA_VERSION + ")");
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
            if (version > SCHEMA_VERSION) {
                throw new HistoryException("the results history " + file + " has schema version " + version
                        + ", newer than the version " + SCHEMA_VERSION + " this build of stillwater bench understands;"
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
                    for (String ddl : FEATURE_SCHEMA) {
                        s.execute(ddl);
                    }
                    return s.execute("INSERT INTO schema_version (version) VALUES (3)");
                });
            }
        }
    }

    // ---- writing ----

    /**
     * Records one bench run in one transaction: its metadata, each scenario's verdict, every run
     * of each side (status, statistics, error counts, the success histogram rebuilt from the time
     * series) and the stat verdicts.
     *
     * @return the run's id in the history
     */
    public long recordRun(RunInfo info, List<ScenarioComparison> scenarios) {
        try {
            return Db.inTransaction(db, () -> {
                long id = insertRun(info);
                for (ScenarioComparison c : scenarios) {
                    insertScenario(id, c);
                }
                return id;
            });
        } catch (SQLException e) {
            throw new HistoryException("cannot record the run in " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records one feature-bench run ({@code info.mode()} must be {@link RunMode#FEATURE}) in one
     * transaction: the run's row, and per scenario its status, every side run with every sample
     * (warm-up and kept) and the verdicts.
     *
     * @return the run's id in the history
     */
    public long recordFeatureRun(RunInfo info, List<io.stillwater.bench.feature.run.FeatureScenarioResult> scenarios) {
        if (info.mode() != RunMode.FEATURE) {
            throw new IllegalArgumentException("a feature-bench run is recorded with mode FEATURE, not " + info.mode());
        }
        try {
            return Db.inTransaction(db, () -> {
                long id = insertRun(info);
                for (var r : scenarios) {
                    FeatureTables.insert(db, id, r);
                }
                return id;
            });
        } catch (SQLException e) {
            throw new HistoryException("cannot record the feature-bench run in " + file + ": " + e.getMessage(), e);
        }
    }

    private long insertRun(RunInfo info) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("""
                INSERT INTO runs (started, finished, mode, framework_version, this_build, this_target, this_params,
                  other_build, other_target, other_params, runs_per_side, load_phase_seconds, host)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
            p.setString(1, info.started().toString());
            p.setString(2, info.finished().toString());
            p.setString(3, info.mode().name());
            p.setString(4, info.frameworkVersion());
            p.setString(5, info.thisSide().build());
            p.setString(6, info.thisSide().target());
            p.setString(7, toJson(info.thisSide().params()));
            p.setString(8, info.otherSide().build());
            p.setString(9, info.otherSide().target());
            p.setString(10, toJson(info.otherSide().params()));
            p.setInt(11, info.runsPerSide());
            if (info.loadPhaseOverride() == null) {
                p.setNull(12, Types.REAL);
            } else {
                p.setDouble(12, info.loadPhaseOverride().toNanos() / 1e9);
            }
            p.setString(13, toJson(info.host()));
            p.executeUpdate();
            try (ResultSet keys = p.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private void insertScenario(long runId, ScenarioComparison c) throws SQLException {
        ScenarioOutcome outcome = ScenarioOutcome.of(c);
        String version = c.thisRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse(c.otherRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                        .orElse(""));
        try (PreparedStatement p = db.prepareStatement(
                "INSERT INTO scenarios (run_id, scenario, version, verdict, reason) VALUES (?, ?, ?, ?, ?)")) {
            p.setLong(1, runId);
            p.setString(2, c.scenario());
            p.setString(3, version);
            p.setString(4, outcome.verdict().name());
            p.setString(5, outcome.reason());
            p.executeUpdate();
        }
        try (PreparedStatement runs = db.prepareStatement("""
                INSERT INTO scenario_runs (run_id, scenario, side, run_number, version, status, failure, messages)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""");
                PreparedStatement stats = db.prepareStatement("""
                        INSERT INTO stats (run_id, scenario, side, run_number, action, stat, value)
                        VALUES (?, ?, ?, ?, ?, ?, ?)""");
                PreparedStatement errors = db.prepareStatement("""
                        INSERT INTO error_counts (run_id, scenario, side, run_number, action, error, count)
                        VALUES (?, ?, ?, ?, ?, ?, ?)""");
                PreparedStatement hists = db.prepareStatement("""
                        INSERT INTO histograms (run_id, scenario, side, run_number, action, encoded)
                        VALUES (?, ?, ?, ?, ?, ?)""")) {
            insertSide(runId, c.scenario(), "this", c.thisRuns(), runs, stats, errors, hists);
            insertSide(runId, c.scenario(), "other", c.otherRuns(), runs, stats, errors, hists);
            runs.executeBatch();
            stats.executeBatch();
            errors.executeBatch();
            hists.executeBatch();
        }
        try (PreparedStatement p = db.prepareStatement("""
                INSERT INTO verdicts (run_id, scenario, action, stat, this_value, other_value, threshold, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (StatVerdict v : c.verdicts()) {
                p.setLong(1, runId);
                p.setString(2, c.scenario());
                p.setString(3, v.action());
                p.setString(4, v.stat().key());
                Db.setDouble(p, 5, v.thisValue());
                Db.setDouble(p, 6, v.otherValue());
                p.setString(7, encodeThreshold(v.threshold()));
                p.setString(8, v.outcome().name());
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    private static void insertSide(long runId, String scenario, String side, List<ScenarioResult> results,
            PreparedStatement runs, PreparedStatement stats, PreparedStatement errors, PreparedStatement hists)
            throws SQLException {
        int number = 0;
        for (ScenarioResult r : results) {
            number++;
            runs.setLong(1, runId);
            runs.setString(2, scenario);
            runs.setString(3, side);
            runs.setInt(4, number);
            runs.setString(5, r.version());
            runs.setString(6, r.status().name());
            runs.setString(7, r.failure());
            // e.g. the system parameters in effect, read back after the launch
            runs.setString(8, toJson(r.messages()));
            runs.addBatch();
            for (ActionStatistics a : r.actions().values()) {
                for (Stat stat : Stat.values()) {
                    addStat(stats, runId, scenario, side, number, a.action(), stat.key(), a.value(stat));
                }
                addStat(stats, runId, scenario, side, number, a.action(), WALL_SECONDS, a.wallSeconds());
                for (Map.Entry<String, Long> e : a.errorCounts().entrySet()) {
                    errors.setLong(1, runId);
                    errors.setString(2, scenario);
                    errors.setString(3, side);
                    errors.setInt(4, number);
                    errors.setString(5, a.action());
                    errors.setString(6, e.getKey());
                    errors.setLong(7, e.getValue());
                    errors.addBatch();
                }
                hists.setLong(1, runId);
                hists.setString(2, scenario);
                hists.setString(3, side);
                hists.setInt(4, number);
                hists.setString(5, a.action());
                hists.setString(6, HistogramCodec.encode(
                        HistogramCodec.fromSamples(r.timeSeries().getOrDefault(a.action(), List.of()))));
                hists.addBatch();
            }
        }
    }

    private static void addStat(PreparedStatement p, long runId, String scenario, String side, int number,
            String action, String stat, double value) throws SQLException {
        p.setLong(1, runId);
        p.setString(2, scenario);
        p.setString(3, side);
        p.setInt(4, number);
        p.setString(5, action);
        p.setString(6, stat);
        Db.setDouble(p, 7, value);
        p.addBatch();
    }

    /**
     * Records the spreads of an A/A comparison ({@code --calibrate}) as the current calibration of
     * its scenario, replacing earlier ones for the same scenario, action and stat.
     *
     * @param runId the run (from {@link #recordRun}) the A/A comparison belongs to
     * @return what was stored
     */
    public List<Calibration> saveCalibration(long runId, ScenarioComparison aa) {
        List<Calibration> calibrations = Calibration.from(aa);
        saveCalibration(runId, calibrations);
        return calibrations;
    }

    /** Stores calibrations, replacing earlier ones for the same scenario, action and stat. */
    public void saveCalibration(long runId, List<Calibration> calibrations) {
        try {
            Db.inTransaction(db, () -> {
                try (PreparedStatement p = db.prepareStatement("""
                        INSERT OR REPLACE INTO calibrations
                          (scenario, scenario_version, action, stat, relative_spread, absolute_spread, runs, run_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
                    for (Calibration c : calibrations) {
                        p.setString(1, c.scenario());
                        p.setString(2, c.scenarioVersion());
                        p.setString(3, c.action());
                        p.setString(4, c.stat().key());
                        Db.setDouble(p, 5, c.relativeSpread());
                        Db.setDouble(p, 6, c.absoluteSpread());
                        p.setInt(7, c.runs());
                        p.setLong(8, runId);
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                return null;
            });
        } catch (SQLException e) {
            throw new HistoryException("cannot store calibrations in " + file + ": " + e.getMessage(), e);
        }
    }

    // ---- reading ----

    /**
     * The latest calibration of one stat, whatever scenario version it measured; check
     * {@link Calibration#scenarioVersion()} against the version being reported.
     */
    public Optional<Calibration> calibration(String scenario, String action, Stat stat) {
        return readCalibrations("WHERE scenario = ? AND action = ? AND stat = ?", scenario, action, stat.key())
                .stream().findFirst();
    }

    /** Every stored calibration, for a report. */
    public Calibrations calibrations() {
        return Calibrations.of(readCalibrations(""));
    }

    private List<Calibration> readCalibrations(String where, String... args) {
        String sql = "SELECT scenario, scenario_version, action, stat, relative_spread, absolute_spread, runs"
                + " FROM calibrations " + where;
        List<Calibration> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                p.setString(i + 1, args[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    Optional<Stat> stat = Stat.byKey(rs.getString(4));
                    if (stat.isEmpty()) {
                        continue; // a stat this build no longer reports
                    }
                    out.add(new Calibration(rs.getString(1), rs.getString(2), rs.getString(3), stat.get(),
                            Db.getDouble(rs, 5), Db.getDouble(rs, 6), rs.getInt(7)));
                }
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        return out;
    }

    /** The most recently recorded parallel-bench run (any mode but FEATURE) whose this side was {@code build}. */
    public Optional<StoredRun> latestRun(String build) {
        // feature-bench runs share the table but hold no parallel-bench results
        return runs("WHERE this_build = ? AND mode <> 'FEATURE' ORDER BY id DESC LIMIT 1", build).stream().findFirst();
    }

    /** The most recently recorded feature-bench run whose this side was {@code build}. */
    public Optional<StoredRun> latestFeatureRun(String build) {
        return runs("WHERE this_build = ? AND mode = 'FEATURE' ORDER BY id DESC LIMIT 1", build).stream().findFirst();
    }

    /**
     * Every scenario of a recorded feature-bench run, read back as it was recorded (side runs in the
     * order run, every sample, the verdicts); empty for an unknown id or a parallel-bench run.
     */
    public List<io.stillwater.bench.feature.run.FeatureScenarioResult> featureResults(long runId) {
        try {
            return FeatureTables.read(db, runId);
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    /**
     * The this-side measurements of every scenario of a recorded feature-bench run, by scenario name
     * in recorded order: what {@code feature-bench --compare-to-history} compares against. Empty for
     * an unknown id or a parallel-bench run.
     */
    public java.util.Map<String, StoredFeatureScenario> featureThisSide(long runId) {
        String build = run(runId).map(r -> r.info().thisSide().build()).orElse("");
        java.util.Map<String, StoredFeatureScenario> out = new java.util.LinkedHashMap<>();
        for (var r : featureResults(runId)) {
            List<io.stillwater.bench.feature.run.SideRun> runs = r.runs().stream()
                    .filter(o -> o instanceof io.stillwater.bench.feature.run.SideOutcome.Measured && o.side().equals("this"))
                    .map(o -> ((io.stillwater.bench.feature.run.SideOutcome.Measured) o).run()).toList();
            out.put(r.scenario(), new StoredFeatureScenario(runId, build, r.scenario(), r.version(), r.scale(),
                    r.status(), runs));
        }
        return out;
    }

    /**
     * The this-side build labels of the recorded feature-bench runs, most recently recorded first:
     * what {@code feature-bench --compare-to-history} can be given.
     */
    public List<String> featureBuilds() {
        List<String> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement(
                "SELECT this_build FROM runs WHERE mode = 'FEATURE' GROUP BY this_build ORDER BY MAX(id) DESC");
                ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        return out;
    }

    /** A recorded run by id. */
    public Optional<StoredRun> run(long id) {
        return runs("WHERE id = ?", id).stream().findFirst();
    }

    private List<StoredRun> runs(String tail, Object arg) {
        String sql = """
                SELECT id, started, finished, mode, framework_version, this_build, this_target, this_params,
                  other_build, other_target, other_params, runs_per_side, load_phase_seconds, host
                FROM runs
                """ + tail;
        List<StoredRun> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement(sql)) {
            p.setObject(1, arg);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    double load = rs.getDouble(13);
                    Duration override = rs.wasNull() ? null : Duration.ofNanos(Math.round(load * 1e9));
                    RunInfo info = new RunInfo(Instant.parse(rs.getString(2)), Instant.parse(rs.getString(3)),
                            RunMode.valueOf(rs.getString(4)), rs.getString(5),
                            new SideInfo(rs.getString(6), rs.getString(7), fromJson(rs.getString(8))),
                            new SideInfo(rs.getString(9), rs.getString(10), fromJson(rs.getString(11))),
                            rs.getInt(12), override, fromJson(rs.getString(14)));
                    out.add(new StoredRun(rs.getLong(1), info));
                }
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        return out;
    }

    /**
     * The this-side results of {@code scenario} from the most recent run of {@code build} in which
     * this side completed it at least once: what {@code --compare-to-history BUILD} compares a
     * fresh this side against. Only completed runs are returned.
     */
    public Optional<StoredScenario> statsFor(String build, String scenario) {
        long runId;
        try (PreparedStatement p = db.prepareStatement("""
                SELECT r.id FROM runs r JOIN scenario_runs s ON s.run_id = r.id
                WHERE r.this_build = ? AND r.mode <> 'FEATURE' AND s.scenario = ? AND s.side = 'this'
                  AND s.status = 'COMPLETED'
                ORDER BY r.id DESC LIMIT 1""")) {
            p.setString(1, build);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                runId = rs.getLong(1);
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        StoredRun run = run(runId).orElseThrow();
        return Optional.of(readSide(run, scenario, "this"));
    }

    private StoredScenario readSide(StoredRun run, String scenario, String side) {
        Map<Integer, String> versions = new TreeMap<>();
        Map<Integer, Map<String, Map<String, Double>>> values = new TreeMap<>();
        Map<Integer, Map<String, Map<String, Long>>> errorCounts = new TreeMap<>();
        Map<Integer, Map<String, Histogram>> hists = new TreeMap<>();
        try {
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, version FROM scenario_runs
                    WHERE run_id = ? AND scenario = ? AND side = ? AND status = 'COMPLETED' ORDER BY run_number""")) {
                bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        versions.put(rs.getInt(1), rs.getString(2));
                    }
                }
            }
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, action, stat, value FROM stats
                    WHERE run_id = ? AND scenario = ? AND side = ? ORDER BY run_number, rowid""")) {
                bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        values.computeIfAbsent(rs.getInt(1), k -> new LinkedHashMap<>())
                                .computeIfAbsent(rs.getString(2), k -> new LinkedHashMap<>())
                                .put(rs.getString(3), Db.getDouble(rs, 4));
                    }
                }
            }
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, action, error, count FROM error_counts
                    WHERE run_id = ? AND scenario = ? AND side = ?""")) {
                bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        errorCounts.computeIfAbsent(rs.getInt(1), k -> new LinkedHashMap<>())
                                .computeIfAbsent(rs.getString(2), k -> new TreeMap<>())
                                .put(rs.getString(3), rs.getLong(4));
                    }
                }
            }
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, action, encoded FROM histograms
                    WHERE run_id = ? AND scenario = ? AND side = ? ORDER BY run_number, rowid""")) {
                bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        hists.computeIfAbsent(rs.getInt(1), k -> new LinkedHashMap<>())
                                .put(rs.getString(2), HistogramCodec.decode(rs.getString(3)));
                    }
                }
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        List<Map<String, ActionStatistics>> runs = new ArrayList<>();
        List<Map<String, Histogram>> histograms = new ArrayList<>();
        for (int number : versions.keySet()) {
            Map<String, ActionStatistics> actions = new LinkedHashMap<>();
            values.getOrDefault(number, Map.of()).forEach((action, byStat) -> actions.put(action,
                    statistics(action, byStat,
                            errorCounts.getOrDefault(number, Map.of()).getOrDefault(action, Map.of()))));
            runs.add(actions);
            histograms.add(hists.getOrDefault(number, Map.of()));
        }
        String version = versions.values().stream().findFirst().orElse("");
        return new StoredScenario(run, scenario, version, runs, histograms);
    }

    private static ActionStatistics statistics(String action, Map<String, Double> byKey, Map<String, Long> errors) {
        Map<Stat, Double> s = new EnumMap<>(Stat.class);
        for (Stat stat : Stat.values()) {
            Double v = byKey.get(stat.key());
            s.put(stat, v == null ? Double.NaN : v);
        }
        Double wall = byKey.get(WALL_SECONDS);
        return new ActionStatistics(action, Math.round(s.get(Stat.QUERIES)), Math.round(s.get(Stat.ERRORS)),
                s.get(Stat.ERROR_RATE), s.get(Stat.QPS), s.get(Stat.MIN), s.get(Stat.MAX), s.get(Stat.AVG),
                s.get(Stat.P50), s.get(Stat.P95), s.get(Stat.P99), s.get(Stat.P99_9), s.get(Stat.STD),
                s.get(Stat.SLOPE), wall == null ? Double.NaN : wall, errors);
    }

    /** The stored stat verdicts of one scenario of one run, in the order they were recorded. */
    public List<StatVerdict> verdicts(long runId, String scenario) {
        List<StatVerdict> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT action, stat, this_value, other_value, threshold, outcome FROM verdicts
                WHERE run_id = ? AND scenario = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    Optional<Stat> stat = Stat.byKey(rs.getString(2));
                    if (stat.isPresent()) {
                        out.add(new StatVerdict(rs.getString(1), stat.get(), Db.getDouble(rs, 3), Db.getDouble(rs, 4),
                                decodeThreshold(rs.getString(5)), Outcome.valueOf(rs.getString(6))));
                    }
                }
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
        return out;
    }

    /** The recorded verdict of one scenario of one run. */
    public Optional<ScenarioOutcome> outcome(long runId, String scenario) {
        try (PreparedStatement p = db.prepareStatement(
                "SELECT verdict, reason FROM scenarios WHERE run_id = ? AND scenario = ?")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next()
                        ? Optional.of(new ScenarioOutcome(ScenarioVerdict.valueOf(rs.getString(1)), rs.getString(2)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    @Override
    public void close() {
        closeQuietly(db);
    }

    // ---- encodings ----

    static String encodeThreshold(Threshold t) {
        return switch (t) {
            case Threshold.Ratio r -> "ratio:" + r.factor();
            case Threshold.AbsoluteIncrease a -> "abs:" + a.delta();
            case Threshold.Ungated u -> "ungated";
        };
    }

    static Threshold decodeThreshold(String text) {
        if (text.equals("ungated")) {
            return Threshold.UNGATED;
        }
        if (text.startsWith("ratio:")) {
            return Threshold.ratio(Double.parseDouble(text.substring(6)));
        }
        if (text.startsWith("abs:")) {
            return Threshold.absoluteIncrease(Double.parseDouble(text.substring(4)));
        }
        throw new HistoryException("unknown threshold `" + text + "` in the results history");
    }

    private static void bind(PreparedStatement p, long runId, String scenario, String side) throws SQLException {
        p.setLong(1, runId);
        p.setString(2, scenario);
        p.setString(3, side);
    }

    /** Maps are stored sorted by key, so equal maps have equal text. */
    private static String toJson(Map<String, String> m) {
        return Db.json(new TreeMap<>(m));
    }

    private static String toJson(List<String> list) {
        return Db.json(list);
    }

    /** The messages of one stored run of one side (1-based run number), e.g. the parameters in effect. */
    public List<String> messages(long runId, String scenario, String side, int runNumber) {
        try (PreparedStatement p = db.prepareStatement("""
                SELECT messages FROM scenario_runs WHERE run_id = ? AND scenario = ? AND side = ? AND run_number = ?""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            p.setString(3, side);
            p.setInt(4, runNumber);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next()
                        ? Db.fromJson(rs.getString(1), new TypeReference<List<String>>() { }, "a stored list of messages")
                        : List.of();
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    private static Map<String, String> fromJson(String text) {
        return Db.fromJson(text, new TypeReference<TreeMap<String, String>>() { }, "a stored map");
    }

    private HistoryException readFailure(SQLException e) {
        return new HistoryException("cannot read the results history " + file + ": " + e.getMessage(), e);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing a connection we are abandoning anyway
        }
    }
}
