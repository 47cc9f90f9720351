package io.stillwater.bench.runner;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.HistogramCodec;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RecordedScenario;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The parallel bench's side of the results history: maps its comparisons to the history's own
 * model ({@link RecordedScenario}, {@link ScenarioOutcome}, {@link Calibration}) and compares fresh
 * runs against stored ones, so that the history depends on no benchmark. Stateless; the store's
 * threading rules apply.
 */
public final class ComparisonHistory {
    private ComparisonHistory() {
    }

    /**
     * Records one bench run in one transaction: its metadata, each scenario's verdict, every run
     * of each side (status, statistics, error counts, the success histogram rebuilt from the time
     * series) and the stat verdicts.
     *
     * @return the run's id in the history
     */
    public static long record(HistoryStore store, RunInfo info, List<ScenarioComparison> scenarios) {
        return store.recordRun(info, scenarios.stream().map(ComparisonHistory::toRecord).toList());
    }

    /**
     * Records the spreads of an A/A comparison ({@code --calibrate}) as the current calibration of
     * its scenario, replacing earlier ones for the same scenario, action and stat.
     *
     * @param runId the run (from {@link #record}) the A/A comparison belongs to
     * @return what was stored
     */
    public static List<Calibration> saveCalibration(HistoryStore store, long runId, ScenarioComparison aa) {
        List<Calibration> calibrations = calibrations(aa);
        store.saveCalibration(runId, calibrations);
        return calibrations;
    }

    /** The history's model of one comparison. */
    public static RecordedScenario toRecord(ScenarioComparison c) {
        String version = c.thisRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse(c.otherRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                        .orElse(""));
        return new RecordedScenario(c.scenario(), version, outcome(c), runs(c.thisRuns()), runs(c.otherRuns()),
                c.verdicts());
    }

    private static List<RecordedScenario.Run> runs(List<ScenarioResult> results) {
        List<RecordedScenario.Run> out = new ArrayList<>();
        for (ScenarioResult r : results) {
            Map<String, Histogram> histograms = new LinkedHashMap<>();
            for (String action : r.actions().keySet()) {
                histograms.put(action,
                        HistogramCodec.fromSamples(r.timeSeries().getOrDefault(action, List.of())));
            }
            out.add(new RecordedScenario.Run(r.version(), r.status().name(), r.failure(), r.messages(), r.actions(),
                    histograms));
        }
        return out;
    }

    /**
     * Classifies a comparison. A run whose self-verification failed ({@link
     * ScenarioResult.Status#INVALID}) makes the scenario INVALID unless a run failed outright.
     * A side with no runs at all (compare-to-history has no other runs) is not a problem in itself.
     */
    public static ScenarioOutcome outcome(ScenarioComparison c) {
        List<ScenarioResult> all = Stream.concat(c.thisRuns().stream(), c.otherRuns().stream()).toList();
        List<String> failures = all.stream().filter(r -> r.status() == ScenarioResult.Status.FAILED)
                .map(ScenarioResult::failure).distinct().toList();
        if (!failures.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, String.join("; ", failures));
        }
        List<String> invalid = all.stream().filter(r -> r.status() == ScenarioResult.Status.INVALID)
                .map(ScenarioResult::failure).distinct().toList();
        if (!invalid.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.INVALID, String.join("; ", invalid));
        }
        List<String> skips = all.stream().filter(r -> r.status() == ScenarioResult.Status.SKIPPED)
                .map(ScenarioResult::failure).distinct().toList();
        if (!skips.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.SKIPPED, String.join("; ", skips));
        }
        if (!c.problems().isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, String.join("; ", c.problems()));
        }
        if (c.thisRuns().isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, "no run of this side");
        }
        List<StatVerdict> regressions = c.verdicts().stream().filter(v -> v.outcome() == Outcome.REGRESSION).toList();
        if (!regressions.isEmpty()) {
            Map<String, List<String>> byAction = new LinkedHashMap<>();
            for (StatVerdict v : regressions) {
                byAction.computeIfAbsent(v.action(), a -> new ArrayList<>()).add(v.stat().key());
            }
            List<String> parts = new ArrayList<>();
            byAction.forEach((action, stats) -> parts.add(action + ": " + String.join(", ", stats)));
            return new ScenarioOutcome(ScenarioVerdict.REGRESSED, "regressed " + String.join("; ", parts));
        }
        List<String> violations = c.thisRuns().stream().flatMap(r -> r.violations().stream())
                .map(Object::toString).distinct().toList();
        if (!violations.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.VIOLATED, String.join("; ", violations));
        }
        return new ScenarioOutcome(ScenarioVerdict.PASSED, "");
    }

    /**
     * The spreads of every stat of every action over the completed runs of both sides of an A/A
     * comparison. A stat needs values from at least two runs to have a spread.
     */
    public static List<Calibration> calibrations(ScenarioComparison aa) {
        List<ScenarioResult> completed = Stream.concat(aa.thisRuns().stream(), aa.otherRuns().stream())
                .filter(r -> r.status() == ScenarioResult.Status.COMPLETED).toList();
        String version = completed.stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse("");
        Set<String> actions = new LinkedHashSet<>();
        completed.forEach(r -> actions.addAll(r.actions().keySet()));
        List<Calibration> out = new ArrayList<>();
        for (String action : actions) {
            for (Stat stat : Stat.values()) {
                double[] values = completed.stream().map(r -> r.actions().get(action)).filter(s -> s != null)
                        .mapToDouble((ActionStatistics s) -> s.value(stat)).filter(v -> !Double.isNaN(v)).toArray();
                if (values.length < 2) {
                    continue;
                }
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (double v : values) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                double relative = min > 0 ? max / min - 1 : (max == min ? 0 : Double.NaN);
                out.add(new Calibration(aa.scenario(), version, action, stat, relative, max - min, values.length));
            }
        }
        return out;
    }

    /**
     * {@code --compare-to-history}: compares fresh runs of this side against the stored runs as
     * the other side, by the median like {@link Runner#compare}. The comparison has no other runs
     * (the charts take the stored histograms instead). Failed fresh runs and a scenario version
     * that differs from the stored one are problems: the comparison is then never green, because it
     * would compare different workloads.
     *
     * @param thresholds resolves an action to its thresholds ({@code ScenarioDefinition::thresholdsFor})
     */
    public static ScenarioComparison against(StoredScenario stored, List<ScenarioResult> thisRuns,
            Function<String, Thresholds> thresholds) {
        List<String> problems = new ArrayList<>();
        List<Map<String, ActionStatistics>> fresh = new ArrayList<>();
        for (int i = 0; i < thisRuns.size(); i++) {
            ScenarioResult r = thisRuns.get(i);
            if (r.status() == ScenarioResult.Status.COMPLETED) {
                fresh.add(r.actions());
                if (!r.version().equals(stored.version())) {
                    problems.add("this run " + (i + 1) + " measured version " + r.version() + " but the history of "
                            + stored.run().info().thisSide().build() + " (run " + stored.run().id()
                            + ") has version " + stored.version() + ": not comparable");
                }
            } else {
                problems.add("this run " + (i + 1) + " " + r.status() + ": " + r.failure());
            }
        }
        return new ScenarioComparison(stored.scenario(), thisRuns, List.of(),
                Verdicts.compare(fresh, stored.runs(), thresholds), problems.stream().distinct().toList());
    }
}
