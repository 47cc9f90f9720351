package io.stillwater.bench.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stillwater.bench.history.RecordedFeatureScenario.Outcome;
import io.stillwater.bench.history.RecordedFeatureScenario.Samples;
import io.stillwater.bench.history.RecordedFeatureScenario.SideRun;
import io.stillwater.bench.history.RecordedFeatureScenario.Verdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads the feature benchmark's rows of the history ({@link HistorySchema#FEATURE}) as
 * {@link RecordedFeatureScenario}s. Stateless: every method works on the connection it is given,
 * inside the caller's transaction ({@link HistoryStore} owns the connection and the transaction
 * boundaries).
 */
final class FeatureTables {
    private FeatureTables() {
    }

    static void insert(Connection db, long runId, RecordedFeatureScenario r) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("""
                INSERT INTO feature_scenarios (run_id, scenario, version, groups, scale, status, reason, this_params,
                  other_params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            p.setLong(1, runId);
            p.setString(2, r.scenario());
            p.setString(3, r.version());
            p.setString(4, Db.json(r.groups()));
            p.setDouble(5, r.scale());
            p.setString(6, r.status());
            p.setString(7, r.reason());
            p.setString(8, Db.json(r.thisParams()));
            p.setString(9, Db.json(r.otherParams()));
            p.executeUpdate();
        }
        try (PreparedStatement runs = db.prepareStatement("""
                INSERT INTO feature_side_runs (run_id, scenario, side, run_number, outcome, stop_reason, failure,
                  messages, effective_params, metrics, elapsed_nanos) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
                PreparedStatement samples = db.prepareStatement("""
                        INSERT INTO feature_samples (run_id, scenario, side, run_number, metric, seq, kept, value)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (SideRun run : r.runs()) {
                runs.setLong(1, runId);
                runs.setString(2, r.scenario());
                runs.setString(3, run.side());
                runs.setInt(4, run.runNumber());
                runs.setString(5, run.outcome().name());
                if (run.stopReason() == null) {
                    runs.setNull(6, Types.VARCHAR);
                } else {
                    runs.setString(6, run.stopReason());
                }
                runs.setString(7, run.failure());
                runs.setString(8, Db.json(run.messages()));
                runs.setString(9, Db.json(run.effectiveParams()));
                runs.setString(10, Db.json(run.samples().stream().map(Samples::metric).toList()));
                if (run.elapsedNanos() == null) {
                    runs.setNull(11, Types.INTEGER);
                } else {
                    runs.setLong(11, run.elapsedNanos());
                }
                for (Samples s : run.samples()) {
                    int seq = 0;
                    for (double v : s.discarded()) {
                        addSample(samples, runId, r.scenario(), run, s.metric(), seq++, false, v);
                    }
                    for (double v : s.kept()) {
                        addSample(samples, runId, r.scenario(), run, s.metric(), seq++, true, v);
                    }
                }
                runs.addBatch();
            }
            runs.executeBatch();
            samples.executeBatch();
        }
        try (PreparedStatement p = db.prepareStatement("""
                INSERT INTO feature_verdicts (run_id, scenario, metric, this_median, other_median, this_samples,
                  other_samples, threshold, outcome, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Verdict v : r.verdicts()) {
                p.setLong(1, runId);
                p.setString(2, r.scenario());
                p.setString(3, v.metric());
                Db.setDouble(p, 4, v.thisMedian());
                Db.setDouble(p, 5, v.otherMedian());
                p.setInt(6, v.thisSamples());
                p.setInt(7, v.otherSamples());
                p.setDouble(8, v.threshold());
                p.setString(9, v.outcome());
                p.setString(10, v.text());
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    private static void addSample(PreparedStatement p, long runId, String scenario, SideRun run, String metric,
            int seq, boolean kept, double value) throws SQLException {
        p.setLong(1, runId);
        p.setString(2, scenario);
        p.setString(3, run.side());
        p.setInt(4, run.runNumber());
        p.setString(5, metric);
        p.setInt(6, seq);
        p.setInt(7, kept ? 1 : 0);
        Db.setDouble(p, 8, value);
        p.addBatch();
    }

    /** Every scenario of one feature run, as recorded (equal to what was recorded). */
    static List<RecordedFeatureScenario> read(Connection db, long runId) throws SQLException {
        record Head(String scenario, String version, List<String> groups, double scale, String status,
                String reason, Map<String, String> thisParams, Map<String, String> otherParams) {
        }
        List<Head> heads = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT scenario, version, groups, scale, status, reason, this_params, other_params
                FROM feature_scenarios WHERE run_id = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    heads.add(new Head(rs.getString(1), rs.getString(2), list(rs.getString(3)), rs.getDouble(4),
                            rs.getString(5), rs.getString(6), map(rs.getString(7)), map(rs.getString(8))));
                }
            }
        }
        List<RecordedFeatureScenario> out = new ArrayList<>();
        for (Head h : heads) {
            out.add(new RecordedFeatureScenario(h.scenario(), h.version(), h.groups(), h.scale(), h.status(),
                    h.reason(), h.thisParams(), h.otherParams(), sideRuns(db, runId, h.scenario()),
                    verdicts(db, runId, h.scenario())));
        }
        return out;
    }

    private static List<SideRun> sideRuns(Connection db, long runId, String scenario) throws SQLException {
        List<SideRun> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT side, run_number, outcome, stop_reason, failure, messages, effective_params, metrics,
                  elapsed_nanos FROM feature_side_runs WHERE run_id = ? AND scenario = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    long elapsed = rs.getLong(9);
                    Long elapsedNanos = rs.wasNull() ? null : elapsed;
                    // the samples are filled in below, once this result set is closed
                    List<Samples> metrics = list(rs.getString(8)).stream()
                            .map(m -> new Samples(m, List.of(), List.of())).toList();
                    out.add(new SideRun(rs.getString(1), rs.getInt(2), Outcome.valueOf(rs.getString(3)),
                            rs.getString(4), rs.getString(5), list(rs.getString(6)), map(rs.getString(7)), metrics,
                            elapsedNanos));
                }
            }
        }
        List<SideRun> filled = new ArrayList<>();
        for (SideRun run : out) {
            List<Samples> samples = new ArrayList<>();
            for (Samples s : run.samples()) {
                samples.add(samples(db, runId, scenario, run.side(), run.runNumber(), s.metric()));
            }
            filled.add(new SideRun(run.side(), run.runNumber(), run.outcome(), run.stopReason(), run.failure(),
                    run.messages(), run.effectiveParams(), samples, run.elapsedNanos()));
        }
        return filled;
    }

    private static Samples samples(Connection db, long runId, String scenario, String side, int number,
            String metric) throws SQLException {
        List<Double> discarded = new ArrayList<>();
        List<Double> kept = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT kept, value FROM feature_samples
                WHERE run_id = ? AND scenario = ? AND side = ? AND run_number = ? AND metric = ? ORDER BY seq""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            p.setString(3, side);
            p.setInt(4, number);
            p.setString(5, metric);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    double v = Db.getDouble(rs, 2);
                    (rs.getInt(1) == 1 ? kept : discarded).add(v);
                }
            }
        }
        return new Samples(metric, discarded, kept);
    }

    private static List<Verdict> verdicts(Connection db, long runId, String scenario) throws SQLException {
        List<Verdict> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT metric, this_median, other_median, this_samples, other_samples, threshold, outcome, text
                FROM feature_verdicts WHERE run_id = ? AND scenario = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(new Verdict(rs.getString(1), Db.getDouble(rs, 2), Db.getDouble(rs, 3), rs.getInt(4),
                            rs.getInt(5), rs.getDouble(6), rs.getString(7), rs.getString(8)));
                }
            }
        }
        return out;
    }

    private static List<String> list(String text) {
        return Db.fromJson(text, new TypeReference<List<String>>() { }, "a stored feature-bench list");
    }

    /** Insertion order is kept: parameters appear in reports in the order the runner read them. */
    private static Map<String, String> map(String text) {
        return Db.fromJson(text, new TypeReference<LinkedHashMap<String, String>>() { }, "a stored feature-bench map");
    }
}
