package io.stillwater.bench.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Writes and reads the parallel benchmark's rows of the history ({@link HistorySchema#PARALLEL}) as
 * {@link RecordedScenario}s, {@link StoredScenario}s and stat verdicts. Stateless: every method
 * works on the connection it is given, inside the caller's transaction ({@link HistoryStore} owns
 * the connection and the transaction boundaries). A NULL statistic is a missing one (NaN: no
 * successful query); thresholds are stored as {@code ratio:F}, {@code abs:D} or {@code ungated}.
 */
final class ParallelTables {
    /** Stored beside the {@link Stat}s so that {@link ActionStatistics} round-trips exactly. */
    private static final String WALL_SECONDS = "wall_seconds";

    private ParallelTables() {
    }

    static void insert(Connection db, long runId, RecordedScenario c) throws SQLException {
        ScenarioOutcome outcome = c.outcome();
        try (PreparedStatement p = db.prepareStatement(
                "INSERT INTO scenarios (run_id, scenario, version, verdict, reason) VALUES (?, ?, ?, ?, ?)")) {
            p.setLong(1, runId);
            p.setString(2, c.scenario());
            p.setString(3, c.version());
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

    private static void insertSide(long runId, String scenario, String side, List<RecordedScenario.Run> results,
            PreparedStatement runs, PreparedStatement stats, PreparedStatement errors, PreparedStatement hists)
            throws SQLException {
        int number = 0;
        for (RecordedScenario.Run r : results) {
            number++;
            // messages: e.g. the system parameters in effect, read back after the launch
            Db.bind(runs, runId, scenario, side, number, r.version(), r.status(), r.failure(), Db.json(r.messages()));
            runs.addBatch();
            for (ActionStatistics a : r.actions().values()) {
                for (Stat stat : Stat.values()) {
                    addStat(stats, runId, scenario, side, number, a.action(), stat.key(), a.value(stat));
                }
                addStat(stats, runId, scenario, side, number, a.action(), WALL_SECONDS, a.wallSeconds());
                for (Map.Entry<String, Long> e : a.errorCounts().entrySet()) {
                    Db.bind(errors, runId, scenario, side, number, a.action(), e.getKey(), e.getValue());
                    errors.addBatch();
                }
                Histogram h = r.histograms().get(a.action());
                Db.bind(hists, runId, scenario, side, number, a.action(),
                        HistogramCodec.encode(h == null ? HistogramCodec.fromSamples(List.of()) : h));
                hists.addBatch();
            }
        }
    }

    private static void addStat(PreparedStatement p, long runId, String scenario, String side, int number,
            String action, String stat, double value) throws SQLException {
        Db.bind(p, runId, scenario, side, number, action, stat);
        Db.setDouble(p, 7, value);
        p.addBatch();
    }

    static StoredScenario readSide(Connection db, StoredRun run, String scenario, String side) throws SQLException {
        Map<Integer, String> versions = new TreeMap<>();
        Map<Integer, Map<String, Map<String, Double>>> values = new TreeMap<>();
        Map<Integer, Map<String, Map<String, Long>>> errorCounts = new TreeMap<>();
        Map<Integer, Map<String, Histogram>> hists = new TreeMap<>();
        {
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, version FROM scenario_runs
                    WHERE run_id = ? AND scenario = ? AND side = ? AND status = 'COMPLETED' ORDER BY run_number""")) {
                Db.bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        versions.put(rs.getInt(1), rs.getString(2));
                    }
                }
            }
            try (PreparedStatement p = db.prepareStatement("""
                    SELECT run_number, action, stat, value FROM stats
                    WHERE run_id = ? AND scenario = ? AND side = ? ORDER BY run_number, rowid""")) {
                Db.bind(p, run.id(), scenario, side);
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
                Db.bind(p, run.id(), scenario, side);
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
                Db.bind(p, run.id(), scenario, side);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        hists.computeIfAbsent(rs.getInt(1), k -> new LinkedHashMap<>())
                                .put(rs.getString(2), HistogramCodec.decode(rs.getString(3)));
                    }
                }
            }
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
    static List<StatVerdict> verdicts(Connection db, long runId, String scenario) throws SQLException {
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
        }
        return out;
    }

    /** The recorded verdict of one scenario of one run. */
    static Optional<ScenarioOutcome> outcome(Connection db, long runId, String scenario) throws SQLException {
        try (PreparedStatement p = db.prepareStatement(
                "SELECT verdict, reason FROM scenarios WHERE run_id = ? AND scenario = ?")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next()
                        ? Optional.of(new ScenarioOutcome(ScenarioVerdict.valueOf(rs.getString(1)), rs.getString(2)))
                        : Optional.empty();
            }
        }
    }

    /** The messages of one stored run of one side (1-based run number), e.g. the parameters in effect. */
    static List<String> messages(Connection db, long runId, String scenario, String side, int runNumber)
            throws SQLException {
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
        }
    }

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

}
