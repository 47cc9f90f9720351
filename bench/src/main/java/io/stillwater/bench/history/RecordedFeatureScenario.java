package io.stillwater.bench.history;

import java.util.List;
import java.util.Map;

/**
 * One scenario of a feature-bench run in the history's own model: what {@link
 * HistoryStore#recordFeatureRun} writes to the {@code feature_*} tables and {@link
 * HistoryStore#featureScenarios} reads back, equal to what was written. The feature bench maps its
 * results to and from this record ({@code feature.run.FeatureHistory}); names of statuses,
 * outcomes, stop reasons and metrics are stored as the text the feature bench gives them.
 *
 * @param runs every side run in the order run (this 1, other 1, this 2, ...)
 */
public record RecordedFeatureScenario(String scenario, String version, List<String> groups, double scale,
        String status, String reason, Map<String, String> thisParams, Map<String, String> otherParams,
        List<SideRun> runs, List<Verdict> verdicts) {

    public RecordedFeatureScenario {
        groups = List.copyOf(groups);
        runs = List.copyOf(runs);
        verdicts = List.copyOf(verdicts);
    }

    /** How a side run ended; the text stored in {@code feature_side_runs.outcome}. */
    public enum Outcome { MEASURED, SKIPPED, FAILED }

    /**
     * One side run. A SKIPPED or FAILED run has no samples, no stop reason and no elapsed time.
     *
     * @param stopReason why sampling stopped, or null (also for a measured run that had none)
     * @param failure the skip reason or the error; empty for a measured run
     * @param effectiveParams the parameters read back from the target, in the order read
     * @param samples one entry per metric measured, in the order measured
     * @param elapsedNanos the run's wall time, or null when it was not measured
     */
    public record SideRun(String side, int runNumber, Outcome outcome, String stopReason, String failure,
            List<String> messages, Map<String, String> effectiveParams, List<Samples> samples, Long elapsedNanos) {
        public SideRun {
            messages = List.copyOf(messages);
            samples = List.copyOf(samples);
        }
    }

    /** Every sample of one metric of one side run, warm-up ({@code discarded}) then kept, each in the order measured. */
    public record Samples(String metric, List<Double> discarded, List<Double> kept) {
        public Samples {
            discarded = List.copyOf(discarded);
            kept = List.copyOf(kept);
        }
    }

    /** The verdict on one metric, on the pooled kept samples of both sides. */
    public record Verdict(String metric, double thisMedian, double otherMedian, int thisSamples, int otherSamples,
            double threshold, String outcome, String text) {
    }
}
