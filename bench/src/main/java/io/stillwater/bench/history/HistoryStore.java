package io.stillwater.bench.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stillwater.bench.gate.StatVerdict;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The results history: one SQLite file holding every recorded bench run (metadata, per-run
 * statistics, encoded histograms, verdicts) and the calibrations of {@code --calibrate}. The file
 * carries its schema version ({@link HistorySchema}); a file written by a newer build is refused
 * rather than misread.
 *
 * <p>One schema API for both benchmarks: runs are written and read as the history's own records
 * ({@link RunInfo}, {@link RecordedScenario}, {@link RecordedFeatureScenario}, {@link Calibration});
 * each benchmark maps its results to and from them in its own package
 * ({@code runner.ComparisonHistory}, {@code feature.run.FeatureHistory}), so this package depends on
 * neither benchmark.
 *
 * <p>Not thread-safe: one store owns one JDBC connection; use it from one thread. Each
 * {@link #recordRun} is one transaction, so a crash never leaves half a run behind.
 */
public final class HistoryStore implements AutoCloseable {
    /** The schema this build writes and reads; see {@link HistorySchema} for its tables. */
    public static final int SCHEMA_VERSION = HistorySchema.VERSION;

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
            HistorySchema.prepare(c, abs);
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

    // ---- writing ----

    /**
     * Records one parallel-bench run in one transaction: its metadata, each scenario's verdict,
     * every run of each side (status, statistics, error counts, the success histogram) and the stat
     * verdicts.
     *
     * @return the run's id in the history
     */
    public long recordRun(RunInfo info, List<RecordedScenario> scenarios) {
        try {
            return Db.inTransaction(db, () -> {
                long id = insertRun(info);
                for (RecordedScenario c : scenarios) {
                    ParallelTables.insert(db, id, c);
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
    public long recordFeatureRun(RunInfo info, List<RecordedFeatureScenario> scenarios) {
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
    public List<RecordedFeatureScenario> featureScenarios(long runId) {
        return read(() -> FeatureTables.read(db, runId));
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
        return Optional.of(read(() -> ParallelTables.readSide(db, run, scenario, "this")));
    }

    /** The stored stat verdicts of one scenario of one run, in the order they were recorded. */
    public List<StatVerdict> verdicts(long runId, String scenario) {
        return read(() -> ParallelTables.verdicts(db, runId, scenario));
    }

    /** The recorded verdict of one scenario of one run. */
    public Optional<ScenarioOutcome> outcome(long runId, String scenario) {
        return read(() -> ParallelTables.outcome(db, runId, scenario));
    }

    /** The messages of one stored run of one side (1-based run number), e.g. the parameters in effect. */
    public List<String> messages(long runId, String scenario, String side, int runNumber) {
        return read(() -> ParallelTables.messages(db, runId, scenario, side, runNumber));
    }

    /** Runs one read, turning a database failure into a {@link HistoryException} naming the file. */
    private <T> T read(Db.Work<T> query) {
        try {
            return query.run();
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    @Override
    public void close() {
        closeQuietly(db);
    }

    /** Maps are stored sorted by key, so equal maps have equal text. */
    private static String toJson(Map<String, String> m) {
        return Db.json(new TreeMap<>(m));
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
