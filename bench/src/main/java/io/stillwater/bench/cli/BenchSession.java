package io.stillwater.bench.cli;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.report.ProgressBar;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.LoadPhaseListener;
import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioLoop;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.scenarios.Read;
import io.stillwater.targets.TargetSpec;
import io.stillwater.bench.targets.Targets;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One bench invocation without the command line: runs the selected scenarios in the chosen mode
 * and returns the {@link BenchRun}. Scenarios run one after another; a failing scenario never stops
 * the next one (the runner isolates it).
 */
public final class BenchSession {

    /**
     * @param other the other side; used only in COMPARE mode (may be null otherwise)
     * @param loadPhaseDuration null: each scenario's own durations
     * @param historyBuild the build to compare against in COMPARE_TO_HISTORY mode, else ""
     */
    public record Options(RunMode mode, SideConfig thisSide, SideConfig other, int runsPerSide,
            Duration loadPhaseDuration, List<ScenarioSource> scenarios, Shard shard, String historyBuild) {
        public Options {
            scenarios = List.copyOf(scenarios);
            if (mode == RunMode.COMPARE && other == null) {
                throw new IllegalArgumentException("comparing needs the other side");
            }
            if (runsPerSide < 1) {
                throw new IllegalArgumentException("--runs must be at least 1, got " + runsPerSide);
            }
        }
    }

    private final Options options;
    private final PrintWriter progress;
    private final HistoryStore history;
    private final LoadPhaseListener progressBars;

    /** @param history required for {@link RunMode#COMPARE_TO_HISTORY}, else unused (may be null) */
    public BenchSession(Options options, PrintWriter progress, HistoryStore history) {
        this(options, progress, history, LoadPhaseListener.NONE);
    }

    /**
     * @param loadPhases told about every measured load phase; {@link #progressBars(PrintStream)} draws
     *     a progress bar for each
     */
    public BenchSession(Options options, PrintWriter progress, HistoryStore history, LoadPhaseListener loadPhases) {
        this.progressBars = loadPhases;
        this.options = options;
        this.progress = progress;
        this.history = history;
        if (options.mode() == RunMode.COMPARE_TO_HISTORY && history == null) {
            throw new IllegalArgumentException("--compare-to-history needs a history file");
        }
    }

    public BenchRun execute() {
        Instant started = Instant.now();
        Runner runner = new Runner(options.loadPhaseDuration(), progressBars);
        TargetLauncher thisLauncher = Targets.launcher(options.thisSide().target(), options.thisSide().params());
        TargetLauncher otherLauncher = options.mode() == RunMode.COMPARE
                ? Targets.launcher(options.other().target(), options.other().params()) : null;
        List<ScenarioComparison> comparisons = new ArrayList<>();
        List<Calibration> calibrations = new ArrayList<>();
        Map<String, StoredScenario> stored = new LinkedHashMap<>();
        warmUp(thisLauncher, otherLauncher);
        if (options.mode() == RunMode.FEATURE) {
            throw new IllegalArgumentException("a feature-bench run is not a parallel bench run");
        }
        ScenarioLoop.Listener<ScenarioSource, ScenarioComparison> announce = new ScenarioLoop.Listener<>() {
            @Override
            public void started(int index, int total, ScenarioSource s) {
                progress.printf("[%d/%d] %s: %d run(s) per side%n", index, total, s.name(), options.runsPerSide());
                progress.flush();
            }
        };
        comparisons.addAll(ScenarioLoop.each(options.scenarios(), announce, s -> switch (options.mode()) {
            case COMPARE -> runner.compare(thisLauncher, otherLauncher, s, options.runsPerSide());
            case CALIBRATE -> runner.compare(thisLauncher, thisLauncher, s, options.runsPerSide());
            case COMPARE_TO_HISTORY -> againstHistory(runner, thisLauncher, s, stored);
            case FEATURE -> throw new IllegalStateException("checked above");
        }, (s, e) -> new ScenarioComparison(s.name(), List.of(), List.of(), List.of(),
                List.of("the bench failed running it: " + SqlErrors.describe(e)))));
        if (options.mode() == RunMode.CALIBRATE) {
            comparisons.forEach(c -> calibrations.addAll(ComparisonHistory.calibrations(c)));
        }
        return new BenchRun(options.mode(), started, Instant.now(), options.thisSide(),
                options.mode() == RunMode.COMPARE_TO_HISTORY ? null : options.mode() == RunMode.CALIBRATE
                        ? options.thisSide() : options.other(),
                options.runsPerSide(), options.loadPhaseDuration(), options.shard(), options.historyBuild(),
                comparisons, calibrations, stored);
    }

    /**
     * An embedded engine shares the bench's JVM, and its JIT state outlives a run: without a warm-up
     * the first run (always this side's) would run colder code than every later one, a bias against
     * this. So, when a side is embedded, {@link Read} (it runs on every
     * target and exercises the whole statement path) runs once on it with short load phases first,
     * and its results are discarded.
     */
    private void warmUp(TargetLauncher thisLauncher, TargetLauncher otherLauncher) {
        // Embedded sides share this JVM, so warming one warms both; jar and url sides have their own.
        TargetLauncher embedded = options.thisSide().target() instanceof TargetSpec.Embedded
                ? thisLauncher
                : options.mode() == RunMode.COMPARE
                        && options.other().target() instanceof TargetSpec.Embedded
                        ? otherLauncher : null;
        if (embedded == null) {
            return;
        }
        ScenarioSource warmUp = ScenarioSource.of(Read.class);
        progress.printf("warm-up (results discarded): %s, %d s load phases%n", warmUp.name(), WARM_UP.toSeconds());
        progress.flush();
        new Runner(WARM_UP).run(embedded, warmUp);
    }

    private static final Duration WARM_UP = Duration.ofSeconds(2);

    /**
     * A progress bar per load phase on {@code out} (normally stderr, so the table on stdout stays
     * clean): redrawn in place on a terminal, a line every 10 s elsewhere.
     */
    public static LoadPhaseListener progressBars(PrintStream out) {
        return (scenario, phase, duration) -> {
            ProgressBar bar = ProgressBar.start(scenario + " load " + phase, duration, out);
            return bar::close;
        };
    }

    /**
     * Runs this side, then compares with the newest stored run of the history build that completed
     * the scenario; a different scenario version is a problem, never a comparison
     * ({@link ComparisonHistory#against}).
     */
    private ScenarioComparison againstHistory(Runner runner, TargetLauncher thisLauncher, ScenarioSource s,
            Map<String, StoredScenario> stored) {
        List<ScenarioResult> thisRuns = new ArrayList<>();
        for (int r = 1; r <= options.runsPerSide(); r++) {
            thisRuns.add(runner.run(thisLauncher, s));
        }
        var def = definition(s);
        Optional<StoredScenario> found;
        try {
            found = history.statsFor(options.historyBuild(), s.name());
        } catch (RuntimeException e) {
            return new ScenarioComparison(s.name(), thisRuns, List.of(), List.of(),
                    List.of("reading the history of build " + options.historyBuild() + ": " + e.getMessage()));
        }
        if (def.isEmpty() || found.isEmpty()) {
            List<String> problems = new ArrayList<>(ScenarioComparison.problems("this", thisRuns));
            if (found.isEmpty()) {
                // never green by omission: asked to compare, there was nothing to compare with
                problems.add("build " + options.historyBuild() + " has no stored completed result of " + s.name()
                        + " in " + history.file());
            }
            return new ScenarioComparison(s.name(), thisRuns, List.of(), List.of(), problems);
        }
        stored.put(s.name(), found.get());
        return ComparisonHistory.against(found.get(), thisRuns, def.get()::thresholdsFor);
    }

    private static Optional<ScenarioDefinition> definition(ScenarioSource s) {
        try {
            return Optional.of(s.constructor().get().definition());
        } catch (Throwable t) {
            return Optional.empty();
        }
    }
}
