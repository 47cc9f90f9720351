package io.stillwater.bench.history;

import io.stillwater.bench.gate.GuaranteeViolation;
import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.LatencyRecorder;
import io.stillwater.bench.stats.Sample;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Scenario results as the runner makes them, from real {@link LatencyRecorder}s fed with
 * seeded latencies, and comparisons whose verdicts come from the real {@link Verdicts}.
 */
public final class BenchFixtures {
    private BenchFixtures() {
    }

    public static final String LOOKUP = "SELECT v FROM hot WHERE k = 42 (pooled)";
    public static final String WALK = "SELECT v FROM hot WHERE v = -1 (pooled)";

    /**
     * One completed run: each action gets {@code n} samples at 100/s over the run, latencies
     * log-normal around {@code medianMillis} (per action, in the given order), plus
     * {@code failures} failed queries on the first action.
     */
    public static ScenarioResult completed(String scenario, long seed, int n, int failures, Map<String, Double> medianMillis,
            List<GuaranteeViolation> violations) {
        Random random = new Random(seed);
        Map<String, ActionStatistics> stats = new LinkedHashMap<>();
        Map<String, List<Sample>> series = new LinkedHashMap<>();
        boolean first = true;
        for (Map.Entry<String, Double> e : medianMillis.entrySet()) {
            LatencyRecorder r = new LatencyRecorder(e.getKey());
            for (int i = 0; i < n; i++) {
                long offset = i * 10_000_000L;
                double ms = e.getValue() * Math.exp(0.4 * random.nextGaussian());
                r.recordSuccess(offset, (long) (ms * 1e6));
            }
            if (first) {
                for (int i = 0; i < failures; i++) {
                    r.recordFailure(i * 25_000_000L, 3_000_000L, "57014: canceling statement due to user request");
                }
            }
            first = false;
            r.addWallTime(n * 10_000_000L);
            stats.put(e.getKey(), r.statistics());
            series.put(e.getKey(), r.samples());
        }
        return new ScenarioResult(scenario, "1.2.0", ScenarioResult.Status.COMPLETED, "", stats, series, List.of(),
                List.of("skipped `ALTER SYSTEM SET x = 1`: the target has no such parameter"), List.of(),
                violations);
    }

    public static ScenarioResult failed(String scenario, String failure) {
        return new ScenarioResult(scenario, "1.0.0", ScenarioResult.Status.FAILED, failure, Map.of(), Map.of(),
                List.of(), List.of(), List.of(), List.of());
    }

    public static ScenarioResult skipped(String scenario, String reason) {
        return new ScenarioResult(scenario, "1.0.0", ScenarioResult.Status.SKIPPED, reason, Map.of(), Map.of(),
                List.of(), List.of(), List.of(), List.of());
    }

    /**
     * {@link #twoActions} whose every completed run failed self-verification with {@code reason}:
     * the runs are INVALID, so (as in the runner) none enters a verdict.
     */
    public static ScenarioComparison invalid(String scenario, String reason) {
        ScenarioComparison c = twoActions(scenario, 1.0);
        Function<ScenarioResult, ScenarioResult> invalidate = r -> new ScenarioResult(r.scenario(),
                r.version(), ScenarioResult.Status.INVALID, reason, r.actions(), r.timeSeries(), r.loadPhases(),
                r.messages(), r.warnings(), r.violations());
        return compare(scenario, c.thisRuns().stream().map(invalidate).toList(),
                c.otherRuns().stream().map(invalidate).toList());
    }

    /** Compares runs the way the runner does: medians of completed runs, CONTENDED on the lookup. */
    public static ScenarioComparison compare(String scenario, List<ScenarioResult> thisRuns,
            List<ScenarioResult> otherRuns) {
        List<String> problems = new ArrayList<>(ScenarioComparison.problems("this", thisRuns));
        problems.addAll(ScenarioComparison.problems("other", otherRuns));
        List<StatVerdict> verdicts = Verdicts.compare(completedStats(thisRuns), completedStats(otherRuns),
                action -> action.equals(LOOKUP) ? Thresholds.DEFAULT.with(Overrides.CONTENDED)
                        : action.equals(WALK) ? Thresholds.ALL_UNGATED : Thresholds.DEFAULT);
        return new ScenarioComparison(scenario, thisRuns, otherRuns, verdicts, problems);
    }

    private static List<Map<String, ActionStatistics>> completedStats(List<ScenarioResult> runs) {
        return runs.stream().filter(r -> r.status() == ScenarioResult.Status.COMPLETED).map(ScenarioResult::actions)
                .toList();
    }

    /** A comparison of two runs per side; {@code slowdown} multiplies this side's latencies. */
    public static ScenarioComparison twoActions(String scenario, double slowdown) {
        Map<String, Double> thisMedians = new LinkedHashMap<>();
        thisMedians.put(LOOKUP, 2.0 * slowdown);
        thisMedians.put(WALK, 40.0 * slowdown);
        Map<String, Double> otherMedians = new LinkedHashMap<>();
        otherMedians.put(LOOKUP, 2.0);
        otherMedians.put(WALK, 40.0);
        return compare(scenario,
                List.of(completed(scenario, 1, 2000, 3, thisMedians, List.of()),
                        completed(scenario, 3, 2000, 0, thisMedians, List.of())),
                List.of(completed(scenario, 2, 2000, 0, otherMedians, List.of()),
                        completed(scenario, 4, 2000, 0, otherMedians, List.of())));
    }

    public static RunInfo runInfo(String thisBuild, RunMode mode) {
        return new RunInfo(Instant.parse("2026-12-02T11:00:00Z"), Instant.parse("2026-12-02T11:05:30.250Z"), mode,
                RunInfo.FRAMEWORK_VERSION,
                new SideInfo(thisBuild, "embedded", Map.of("enable_compute_interactive_runtime", "true")),
                new SideInfo("main", "jar:/tmp/stillwater-main.jar",
                        Map.of("enable_compute_interactive_runtime", "false")),
                2, Duration.ofSeconds(2), RunInfo.hostFacts());
    }

    /** The number of gated rows: outcome other than UNGATED. */
    public static long gatedStats(List<ScenarioComparison> comparisons) {
        return comparisons.stream().flatMap(c -> c.verdicts().stream())
                .filter(v -> v.outcome() != Outcome.UNGATED).count();
    }

    public static final Stat[] LATENCY = {Stat.P50, Stat.P95, Stat.P99, Stat.P99_9, Stat.MAX};
}
