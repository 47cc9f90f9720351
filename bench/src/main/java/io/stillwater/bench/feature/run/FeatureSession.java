package io.stillwater.bench.feature.run;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.feature.compare.FeatureComparison;
import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.runner.ScenarioLoop;
import io.stillwater.bench.runner.TargetLauncher;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A whole feature run: for each scenario of the suite, this then other (run 1), the verdicts of run
 * 1, further runs per {@link RerunPolicy}, the final verdicts on all runs together. A scenario
 * skipped or failed on either side gets that status and the run goes on with the next scenario.
 *
 * <p>Each run of a scenario uses a fresh instance of its class (same scale), so no state leaks
 * between runs. Runs alternate sides (this 1, other 1, this 2, other 2, ...) so a drift of the
 * host over time hits both sides alike. Everything runs on the calling thread.
 */
public final class FeatureSession {
    /** Runs one side once; {@link FeatureRunner#run} in production, a fake in tests. */
    @FunctionalInterface
    interface SideRunner {
        SideOutcome run(FeatureScenario scenario, String side, int runNumber, TargetLauncher launcher, Set<String> params);
    }

    private final SideRunner runner;
    private final RerunPolicy rerun;
    private final FeatureProgress progress;

    public FeatureSession(FeatureRunner runner, RerunPolicy rerun, FeatureProgress progress) {
        this(runner::run, rerun, progress);
    }

    FeatureSession(SideRunner runner, RerunPolicy rerun, FeatureProgress progress) {
        this.runner = runner;
        this.rerun = rerun;
        this.progress = progress;
    }

    /**
     * @param sideParamNames the names either side's {@code --*-params} sets (read back on both sides)
     */
    public List<FeatureScenarioResult> run(FeatureSuite suite, TargetLauncher thisSide, TargetLauncher otherSide,
            Set<String> sideParamNames) {
        return eachScenario(suite, progress, s -> runScenario(s, thisSide, otherSide, sideParamNames));
    }

    /**
     * {@code one} applied to every scenario of the suite in order, each result reported to
     * {@code progress}. Whatever escapes one scenario becomes its FAILED result: one scenario never
     * ends the session. Shared by every kind of feature run (normal, against history, A/A).
     */
    static List<FeatureScenarioResult> eachScenario(FeatureSuite suite, FeatureProgress progress,
            Function<FeatureScenario, FeatureScenarioResult> one) {
        return ScenarioLoop.each(suite.scenarios(), new ScenarioLoop.Listener<>() {
            @Override
            public void finished(FeatureScenarioResult result) {
                progress.scenarioFinished(result);
            }
        }, one, (scenario, e) -> new FeatureScenarioResult(scenario.name(), safeVersion(scenario),
                safeGroups(scenario), safeScale(scenario), List.of(), List.of(), ScenarioStatus.FAILED,
                "the bench failed running it: " + SqlErrors.describe(e), Map.of(), Map.of()));
    }

    private FeatureScenarioResult runScenario(FeatureScenario scenario, TargetLauncher thisSide,
            TargetLauncher otherSide, Set<String> sideParamNames) {
        Set<String> params = new TreeSet<>(scenario.dependsOnParams());
        params.addAll(sideParamNames);
        List<SideOutcome> runs = new ArrayList<>();
        List<String> groups = FeatureSuite.groupPath(scenario.getClass());
        double scale = scenario.scale();

        // Every side run gets its own instance: the suite's one has been rendered for duplicate detection.
        runs.add(runner.run(fresh(scenario), "this", 1, thisSide, params));
        if (!(runs.get(0) instanceof SideOutcome.Measured)) {
            return ended(scenario, groups, scale, runs);
        }
        runs.add(runner.run(fresh(scenario), "other", 1, otherSide, params));
        if (!(runs.get(1) instanceof SideOutcome.Measured)) {
            return ended(scenario, groups, scale, runs);
        }
        List<MetricVerdict> first = verdicts(scenario, runs);
        int done = 1;
        while (done < rerun.runsPerScenario() && rerun.anotherRun(done, first)) {
            done++;
            SideOutcome t = runner.run(fresh(scenario), "this", done, thisSide, params);
            runs.add(t);
            if (!(t instanceof SideOutcome.Measured)) {
                return ended(scenario, groups, scale, runs);
            }
            SideOutcome o = runner.run(fresh(scenario), "other", done, otherSide, params);
            runs.add(o);
            if (!(o instanceof SideOutcome.Measured)) {
                return ended(scenario, groups, scale, runs);
            }
        }
        return judged(scenario, groups, scale, runs, done == 1 ? first : verdicts(scenario, runs),
                done + (done == 1 ? " run" : " runs") + " per side");
    }

    /**
     * {@code --compare-to-history}: runs this side only and compares it with {@code stored}, the
     * this-side measurements of a recorded run of {@code historyBuild} (that build's own samples).
     * Run 1 of this side, re-runs of this side only per the {@link RerunPolicy}, verdicts on the
     * pooled samples exactly as {@link #run}: all of this side's runs against all stored runs. A
     * scenario missing from the stored run, stored with another version or effective scale, or not
     * measured there, is SKIPPED without running, with the reason: results are never compared
     * across versions or scales. The stored runs appear in each result as side "other".
     *
     * @param stored by scenario name
     */
    public List<FeatureScenarioResult> runAgainstHistory(FeatureSuite suite, TargetLauncher thisSide,
            String historyBuild, Map<String, StoredFeatureScenario> stored, Set<String> sideParamNames) {
        return eachScenario(suite, progress,
                s -> againstHistory(s, thisSide, historyBuild, stored.get(s.name()), sideParamNames));
    }

    private FeatureScenarioResult againstHistory(FeatureScenario scenario, TargetLauncher thisSide,
            String historyBuild, StoredFeatureScenario stored, Set<String> sideParamNames) {
        List<String> groups = FeatureSuite.groupPath(scenario.getClass());
        double scale = scenario.scale();
        String unusable = unusable(scenario, historyBuild, stored);
        if (unusable != null) {
            return new FeatureScenarioResult(scenario.name(), scenario.version(), groups, scale, List.of(), List.of(),
                    ScenarioStatus.SKIPPED, unusable, Map.of(), Map.of());
        }
        Set<String> params = new TreeSet<>(scenario.dependsOnParams());
        params.addAll(sideParamNames);
        // the stored build's own this-side runs play the other side
        List<SideOutcome> others = stored.thisRuns().stream()
                .<SideOutcome>map(t -> new SideOutcome.Measured(new SideRun("other", t.runNumber(), t.samples(),
                        t.stop(), t.effectiveParams(), t.messages(), t.elapsed())))
                .toList();
        List<SideOutcome> runs = new ArrayList<>();
        runs.add(runner.run(fresh(scenario), "this", 1, thisSide, params));
        if (!(runs.get(0) instanceof SideOutcome.Measured)) {
            return ended(scenario, groups, scale, runs);
        }
        runs.addAll(others);
        List<MetricVerdict> first = verdicts(scenario, runs);
        int done = 1;
        while (done < rerun.runsPerScenario() && rerun.anotherRun(done, first)) {
            done++;
            SideOutcome t = runner.run(fresh(scenario), "this", done, thisSide, params);
            runs.add(t);
            if (!(t instanceof SideOutcome.Measured)) {
                return ended(scenario, groups, scale, runs);
            }
        }
        return judged(scenario, groups, scale, runs, done == 1 ? first : verdicts(scenario, runs),
                done + (done == 1 ? " run" : " runs") + " of this, " + others.size()
                        + (others.size() == 1 ? " stored run" : " stored runs") + " of " + historyBuild);
    }

    /**
     * The result of a scenario measured on both sides: REGRESSED when any final verdict is a
     * regression (the reason lists them and says what the medians were pooled over), else PASSED.
     */
    private static FeatureScenarioResult judged(FeatureScenario scenario, List<String> groups, double scale,
            List<SideOutcome> runs, List<MetricVerdict> verdicts, String pooledOver) {
        List<MetricVerdict> regressed = verdicts.stream().filter(v -> v.outcome() == FeatureOutcome.REGRESSION).toList();
        ScenarioStatus status = regressed.isEmpty() ? ScenarioStatus.PASSED : ScenarioStatus.REGRESSED;
        String reason = regressed.stream().map(v -> v.metric().label() + ": " + v.text())
                .collect(Collectors.joining("; "));
        if (!regressed.isEmpty()) {
            reason += " (median of " + pooledOver + ")";
        }
        return new FeatureScenarioResult(scenario.name(), scenario.version(), groups, scale, runs, verdicts, status,
                reason, params(runs, "this"), params(runs, "other"));
    }

    /** Why {@code stored} cannot be compared with this scenario as it runs now, or null when it can. */
    private static String unusable(FeatureScenario scenario, String historyBuild, StoredFeatureScenario stored) {
        if (stored == null) {
            return "not in the stored run of " + historyBuild + "; nothing to compare with";
        }
        String run = historyBuild + "'s run " + stored.runId();
        if (!stored.version().equals(scenario.version())) {
            return run + " has version " + stored.version() + " of it, this build has " + scenario.version()
                    + "; versions are never compared";
        }
        if (Double.compare(stored.scale(), scenario.scale()) != 0) {
            return run + " ran it at scale " + number(stored.scale()) + ", this run at " + number(scenario.scale())
                    + "; scales are never compared (pass --scale " + number(stored.scale()) + ")";
        }
        if (stored.thisRuns().isEmpty()) {
            return run + " has no measurement of it (it was " + stored.status().name().toLowerCase(Locale.ROOT)
                    + " there)";
        }
        return null;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** A side was skipped or failed: the scenario's status is that, with the side's reason. */
    private FeatureScenarioResult ended(FeatureScenario scenario, List<String> groups, double scale,
            List<SideOutcome> runs) {
        SideOutcome last = runs.get(runs.size() - 1);
        ScenarioStatus status;
        String reason;
        if (last instanceof SideOutcome.Skipped s) {
            status = ScenarioStatus.SKIPPED;
            reason = s.side() + ": " + s.reason();
        } else if (last instanceof SideOutcome.Failed f) {
            status = ScenarioStatus.FAILED;
            reason = f.side() + " (run " + f.runNumber() + ") failed: " + f.error();
        } else {
            throw new IllegalStateException("ended() on a measured side");
        }
        return new FeatureScenarioResult(scenario.name(), scenario.version(), groups, scale, runs, List.of(), status,
                reason, params(runs, "this"), params(runs, "other"));
    }

    /** One verdict per metric measured on either side, on the kept samples of every run so far. */
    static List<MetricVerdict> verdicts(FeatureScenario scenario, List<SideOutcome> runs) {
        Set<Metric> metrics = EnumSet.noneOf(Metric.class);
        for (SideOutcome o : runs) {
            if (o instanceof SideOutcome.Measured m) {
                metrics.addAll(m.run().samples().keySet());
            }
        }
        List<MetricVerdict> out = new ArrayList<>();
        for (Metric metric : metrics) {
            out.add(FeatureComparison.compare(metric, pooled(runs, "this", metric), pooled(runs, "other", metric),
                    scenario.threshold(metric)));
        }
        return out;
    }

    /** The kept samples of {@code metric} over every measured run of {@code side}: never one chosen run. */
    static List<Double> pooled(List<SideOutcome> runs, String side, Metric metric) {
        List<Double> out = new ArrayList<>();
        for (SideOutcome o : runs) {
            if (o instanceof SideOutcome.Measured m && m.side().equals(side)) {
                MetricSamples s = m.run().samples().get(metric);
                if (s != null) {
                    out.addAll(s.kept());
                }
            }
        }
        return out;
    }

    private static Map<String, String> params(List<SideOutcome> runs, String side) {
        for (SideOutcome o : runs) {
            if (o instanceof SideOutcome.Measured m && m.side().equals(side)) {
                return m.run().effectiveParams();
            }
        }
        return Map.of();
    }

    /**
     * A new instance of the scenario's class at the same effective scale: an absolute scale equal to
     * the effective one gives it back whatever the class's SCALE and FIXED_SCALE say.
     */
    static FeatureScenario fresh(FeatureScenario scenario) {
        FeatureScenario s;
        try {
            var ctor = scenario.getClass().getDeclaredConstructor();
            ctor.setAccessible(true);
            s = ctor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(scenario.name() + " cannot be instantiated again (it needs a public "
                    + "no-argument constructor): " + e, e);
        }
        s.applyScale(new ScaleOption(scenario.scale(), false));
        return s;
    }

    private static String safeVersion(FeatureScenario s) {
        try {
            return s.version();
        } catch (RuntimeException e) {
            return "?";
        }
    }

    private static List<String> safeGroups(FeatureScenario s) {
        try {
            return FeatureSuite.groupPath(s.getClass());
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static double safeScale(FeatureScenario s) {
        try {
            return s.scale();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
