package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RecordedFeatureScenario.Outcome;
import io.stillwater.bench.history.RecordedFeatureScenario.Samples;
import io.stillwater.bench.history.RecordedFeatureScenario.Verdict;
import io.stillwater.bench.history.RecordedFeatureScenario;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The feature bench's side of the results history: maps its results to the history's own model
 * ({@link RecordedFeatureScenario}) and back, so that the history depends on no benchmark. A
 * round trip is the identity: {@code results(store, record(store, info, rs))} equals {@code rs}.
 * Stateless; the store's threading rules apply.
 */
public final class FeatureHistory {
    private FeatureHistory() {
    }

    /**
     * Records one feature-bench run ({@code info.mode()} must be {@link RunMode#FEATURE}) in one
     * transaction: the run's row, and per scenario its status, every side run with every sample
     * (warm-up and kept) and the verdicts.
     *
     * @return the run's id in the history
     */
    public static long record(HistoryStore store, RunInfo info, List<FeatureScenarioResult> scenarios) {
        return store.recordFeatureRun(info, scenarios.stream().map(FeatureHistory::toRecord).toList());
    }

    /**
     * Every scenario of a recorded feature-bench run, read back as it was recorded (side runs in the
     * order run, every sample, the verdicts); empty for an unknown id or a parallel-bench run.
     */
    public static List<FeatureScenarioResult> results(HistoryStore store, long runId) {
        return store.featureScenarios(runId).stream().map(FeatureHistory::fromRecord).toList();
    }

    /**
     * The this-side measurements of every scenario of a recorded feature-bench run, by scenario name
     * in recorded order: what {@code feature-bench --compare-to-history} compares against. Empty for
     * an unknown id or a parallel-bench run.
     */
    public static Map<String, StoredFeatureScenario> thisSide(HistoryStore store, long runId) {
        String build = store.run(runId).map(r -> r.info().thisSide().build()).orElse("");
        Map<String, StoredFeatureScenario> out = new LinkedHashMap<>();
        for (FeatureScenarioResult r : results(store, runId)) {
            List<SideRun> runs = r.runs().stream()
                    .filter(o -> o instanceof SideOutcome.Measured && o.side().equals("this"))
                    .map(o -> ((SideOutcome.Measured) o).run()).toList();
            out.put(r.scenario(), new StoredFeatureScenario(runId, build, r.scenario(), r.version(), r.scale(),
                    r.status(), runs));
        }
        return out;
    }

    static RecordedFeatureScenario toRecord(FeatureScenarioResult r) {
        List<RecordedFeatureScenario.SideRun> runs = new ArrayList<>();
        for (SideOutcome o : r.runs()) {
            runs.add(switch (o) {
                case SideOutcome.Measured m -> {
                    SideRun run = m.run();
                    List<Samples> samples = run.samples().values().stream()
                            .map(s -> new Samples(s.metric().name(), s.discarded(), s.kept())).toList();
                    yield new RecordedFeatureScenario.SideRun(run.side(), run.runNumber(), Outcome.MEASURED,
                            run.stop() == null ? null : run.stop().name(), "", run.messages(),
                            run.effectiveParams(), samples, run.elapsed().toNanos());
                }
                case SideOutcome.Skipped s -> new RecordedFeatureScenario.SideRun(s.side(), s.runNumber(),
                        Outcome.SKIPPED, null, s.reason(), List.of(), Map.of(), List.of(), null);
                case SideOutcome.Failed f -> new RecordedFeatureScenario.SideRun(f.side(), f.runNumber(),
                        Outcome.FAILED, null, f.error(), f.messages(), Map.of(), List.of(), null);
            });
        }
        List<Verdict> verdicts = r.verdicts().stream().map(v -> new Verdict(v.metric().name(), v.thisMedian(),
                v.otherMedian(), v.thisSamples(), v.otherSamples(), v.threshold(), v.outcome().name(), v.text()))
                .toList();
        return new RecordedFeatureScenario(r.scenario(), r.version(), r.groups(), r.scale(), r.status().name(),
                r.reason(), r.thisParams(), r.otherParams(), runs, verdicts);
    }

    static FeatureScenarioResult fromRecord(RecordedFeatureScenario r) {
        List<SideOutcome> runs = new ArrayList<>();
        for (RecordedFeatureScenario.SideRun run : r.runs()) {
            runs.add(switch (run.outcome()) {
                case SKIPPED -> new SideOutcome.Skipped(run.side(), run.runNumber(), run.failure());
                case FAILED -> new SideOutcome.Failed(run.side(), run.runNumber(), run.failure(), run.messages());
                case MEASURED -> {
                    Map<Metric, MetricSamples> samples = new EnumMap<>(Metric.class);
                    for (Samples s : run.samples()) {
                        Metric metric = Metric.valueOf(s.metric());
                        samples.put(metric, new MetricSamples(metric, s.discarded(), s.kept()));
                    }
                    yield new SideOutcome.Measured(new SideRun(run.side(), run.runNumber(), samples,
                            run.stopReason() == null ? null : StopReason.valueOf(run.stopReason()),
                            run.effectiveParams(), run.messages(),
                            run.elapsedNanos() == null ? Duration.ZERO : Duration.ofNanos(run.elapsedNanos())));
                }
            });
        }
        List<MetricVerdict> verdicts = r.verdicts().stream().map(v -> new MetricVerdict(Metric.valueOf(v.metric()),
                v.thisMedian(), v.otherMedian(), v.thisSamples(), v.otherSamples(), v.threshold(),
                FeatureOutcome.valueOf(v.outcome()), v.text())).toList();
        return new FeatureScenarioResult(r.scenario(), r.version(), r.groups(), r.scale(), runs, verdicts,
                ScenarioStatus.valueOf(r.status()), r.reason(), r.thisParams(), r.otherParams());
    }
}
