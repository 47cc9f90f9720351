package io.stillwater.bench.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.MetricSamples;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.run.SideRun;
import io.stillwater.bench.feature.scenario.Metric;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads the feature benchmark's rows of the history ({@link HistoryStore#FEATURE_SCHEMA}).
 * Stateless: every method works on the connection it is given, inside the caller's transaction
 * ({@link HistoryStore} owns the connection and the transaction boundaries).
 */
final class FeatureTables {
    private FeatureTables() {
    }

    static void insert(Connection db, long runId, FeatureScenarioResult r) throws SQLException {
        try (PreparedStatement p = db.prepareStatement("""
                INSERT INTO feature_scenarios (run_id, scenario, version, groups, scale, status, reason, this_params,
                  other_params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            p.setLong(1, runId);
            p.setString(2, r.scenario());
            p.setString(3, r.version());
            p.setString(4, Db.json(r.groups()));
            p.setDouble(5, r.scale());
            p.setString(6, r.status().name());
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
            for (SideOutcome o : r.runs()) {
                runs.setLong(1, runId);
                runs.setString(2, r.scenario());
                runs.setString(3, o.side());
                runs.setInt(4, o.runNumber());
                switch (o) {
                    case SideOutcome.Measured m -> {
                        SideRun run = m.run();
                        runs.setString(5, "MEASURED");
                        if (run.stop() == null) {
                            runs.setNull(6, Types.VARCHAR);
                        } else {
                            runs.setString(6, run.stop().name());
                        }
                        runs.setString(7, "");
                        runs.setString(8, Db.json(run.messages()));
                        runs.setString(9, Db.json(run.effectiveParams()));
                        runs.setString(10, Db.json(run.samples().keySet().stream().map(Metric::name).toList()));
                        runs.setLong(11, run.elapsed().toNanos());
                        for (MetricSamples s : run.samples().values()) {
                            int seq = 0;
                            for (double v : s.discarded()) {
                                addSample(samples, runId, r.scenario(), run, s.metric(), seq++, false, v);
                            }
                            for (double v : s.kept()) {
                                addSample(samples, runId, r.scenario(), run, s.metric(), seq++, true, v);
                            }
                        }
                    }
                    case SideOutcome.Skipped s -> {
                        runs.setString(5, "SKIPPED");
                        runs.setNull(6, Types.VARCHAR);
                        runs.setString(7, s.reason());
                        runs.setString(8, "[]");
                        runs.setString(9, "{}");
                        runs.setString(10, "[]");
                        runs.setNull(11, Types.INTEGER);
                    }
                    case SideOutcome.Failed f -> {
                        runs.setString(5, "FAILED");
                        runs.setNull(6, Types.VARCHAR);
                        runs.setString(7, f.error());
                        runs.setString(8, Db.json(f.messages()));
                        runs.setString(9, "{}");
                        runs.setString(10, "[]");
                        runs.setNull(11, Types.INTEGER);
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
            for (MetricVerdict v : r.verdicts()) {
                p.setLong(1, runId);
                p.setString(2, r.scenario());
                p.setString(3, v.metric().name());
                Db.setDouble(p, 4, v.thisMedian());
                Db.setDouble(p, 5, v.otherMedian());
                p.setInt(6, v.thisSamples());
                p.setInt(7, v.otherSamples());
                p.setDouble(8, v.threshold());
                p.setString(9, v.outcome().name());
                p.setString(10, v.text());
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    private static void addSample(PreparedStatement p, long runId, String scenario, SideRun run, Metric metric,
            int seq, boolean kept, double value) throws SQLException {
        p.setLong(1, runId);
        p.setString(2, scenario);
        p.setString(3, run.side());
        p.setInt(4, run.runNumber());
        p.setString(5, metric.name());
        p.setInt(6, seq);
        p.setInt(7, kept ? 1 : 0);
        Db.setDouble(p, 8, value);
        p.addBatch();
    }

    /** Every scenario of one feature run, as recorded (equal to what was recorded). */
    static List<FeatureScenarioResult> read(Connection db, long runId) throws SQLException {
        record Head(String scenario, String version, List<String> groups, double scale, ScenarioStatus status,
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
                            ScenarioStatus.valueOf(rs.getString(5)), rs.getString(6), map(rs.getString(7)),
                            map(rs.getString(8))));
                }
            }
        }
        List<FeatureScenarioResult> out = new ArrayList<>();
        for (Head h : heads) {
            out.add(new FeatureScenarioResult(h.scenario(), h.version(), h.groups(), h.scale(),
                    sideRuns(db, runId, h.scenario()), verdicts(db, runId, h.scenario()), h.status(), h.reason(),
                    h.thisParams(), h.otherParams()));
        }
        return out;
    }

    private static List<SideOutcome> sideRuns(Connection db, long runId, String scenario) throws SQLException {
        List<SideOutcome> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT side, run_number, outcome, stop_reason, failure, messages, effective_params, metrics,
                  elapsed_nanos FROM feature_side_runs WHERE run_id = ? AND scenario = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    String side = rs.getString(1);
                    int number = rs.getInt(2);
                    switch (rs.getString(3)) {
                        case "SKIPPED" -> out.add(new SideOutcome.Skipped(side, number, rs.getString(5)));
                        case "FAILED" -> out.add(new SideOutcome.Failed(side, number, rs.getString(5),
                                list(rs.getString(6))));
                        default -> {
                            String stop = rs.getString(4);
                            Map<Metric, MetricSamples> samples = new EnumMap<>(Metric.class);
                            for (String m : list(rs.getString(8))) {
                                samples.put(Metric.valueOf(m), new MetricSamples(Metric.valueOf(m), List.of(), List.of()));
                            }
                            out.add(new SideOutcome.Measured(new SideRun(side, number, samples,
                                    stop == null ? null : StopReason.valueOf(stop), map(rs.getString(7)),
                                    list(rs.getString(6)), Duration.ofNanos(rs.getLong(9)))));
                        }
                    }
                }
            }
        }
        // fill in the samples of the measured runs
        List<SideOutcome> filled = new ArrayList<>();
        for (SideOutcome o : out) {
            if (o instanceof SideOutcome.Measured m) {
                SideRun run = m.run();
                Map<Metric, MetricSamples> samples = new EnumMap<>(Metric.class);
                for (Metric metric : run.samples().keySet()) {
                    samples.put(metric, samples(db, runId, scenario, run.side(), run.runNumber(), metric));
                }
                filled.add(new SideOutcome.Measured(new SideRun(run.side(), run.runNumber(), samples, run.stop(),
                        run.effectiveParams(), run.messages(), run.elapsed())));
            } else {
                filled.add(o);
            }
        }
        return filled;
    }

    private static MetricSamples samples(Connection db, long runId, String scenario, String side, int number,
            Metric metric) throws SQLException {
        List<Double> discarded = new ArrayList<>();
        List<Double> kept = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT kept, value FROM feature_samples
                WHERE run_id = ? AND scenario = ? AND side = ? AND run_number = ? AND metric = ? ORDER BY seq""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            p.setString(3, side);
            p.setInt(4, number);
            p.setString(5, metric.name());
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    double v = Db.getDouble(rs, 2);
                    (rs.getInt(1) == 1 ? kept : discarded).add(v);
                }
            }
        }
        return new MetricSamples(metric, discarded, kept);
    }

    private static List<MetricVerdict> verdicts(Connection db, long runId, String scenario) throws SQLException {
        List<MetricVerdict> out = new ArrayList<>();
        try (PreparedStatement p = db.prepareStatement("""
                SELECT metric, this_median, other_median, this_samples, other_samples, threshold, outcome, text
                FROM feature_verdicts WHERE run_id = ? AND scenario = ? ORDER BY rowid""")) {
            p.setLong(1, runId);
            p.setString(2, scenario);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(new MetricVerdict(Metric.valueOf(rs.getString(1)), Db.getDouble(rs, 2), Db.getDouble(rs, 3),
                            rs.getInt(4), rs.getInt(5), rs.getDouble(6), FeatureOutcome.valueOf(rs.getString(7)),
                            rs.getString(8)));
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
