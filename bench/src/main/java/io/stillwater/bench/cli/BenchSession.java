package io.stillwater.bench.cli;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.runner.Runner;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.targets.Targets;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One bench invocation without the command line: runs the selected scenarios in the chosen mode
 * and returns the {@link BenchRun}. Scenarios run one after another; a failing scenario never stops
 * the next one (the runner isolates it).
 */
public final class BenchSession {

    /**
     * @param other the other side; used only in COMPARE mode (may be null otherwise)
     * @param loadPhaseDuration null: each scenario's own durations
     * @param historyBuild the build to compare against in HISTORY mode, else ""
     */
    public record Options(BenchRun.Mode mode, SideConfig thisSide, SideConfig other, int runsPerSide,
            Duration loadPhaseDuration, List<ScenarioSource> scenarios, Shard shard, String historyBuild,
            Path resultsDir) {
        public Options {
            scenarios = List.copyOf(scenarios);
            if (mode == BenchRun.Mode.COMPARE && other == null) {
                throw new IllegalArgumentException("comparing needs the other side");
            }
            if (runsPerSide < 1) {
                throw new IllegalArgumentException("--runs must be at least 1, got " + runsPerSide);
            }
        }
    }

    private final Options options;
    private final PrintWriter progress;
    private final BenchHistory history;

    /** @param history required in HISTORY mode, else unused (may be null) */
    public BenchSession(Options options, PrintWriter progress, BenchHistory history) {
        this.options = options;
        this.progress = progress;
        this.history = history;
        if (options.mode() == BenchRun.Mode.HISTORY && history == null) {
            throw new IllegalArgumentException("--compare-to-history needs the results history, which this build lacks");
        }
    }

    public BenchRun execute() {
        Instant started = Instant.now();
        Runner runner = new Runner(options.loadPhaseDuration());
        TargetLauncher thisLauncher = Targets.launcher(options.thisSide().target(), options.thisSide().params());
        TargetLauncher otherLauncher = options.mode() == BenchRun.Mode.COMPARE
                ? Targets.launcher(options.other().target(), options.other().params()) : null;
        List<ScenarioComparison> comparisons = new ArrayList<>();
        List<Calibration> calibrations = new ArrayList<>();
        warmUp(thisLauncher, otherLauncher);
        int i = 0;
        for (ScenarioSource s : options.scenarios()) {
            i++;
            progress.printf("[%d/%d] %s: %d run(s) per side%n", i, options.scenarios().size(), s.name(),
                    options.runsPerSide());
            progress.flush();
            ScenarioComparison c = switch (options.mode()) {
                case COMPARE -> runner.compare(thisLauncher, otherLauncher, s, options.runsPerSide());
                case CALIBRATE -> runner.compare(thisLauncher, thisLauncher, s, options.runsPerSide());
                case HISTORY -> againstHistory(runner, thisLauncher, s);
            };
            comparisons.add(c);
            if (options.mode() == BenchRun.Mode.CALIBRATE) {
                definition(s).ifPresent(def -> calibrations.addAll(Calibration.of(c, def)));
            }
        }
        return new BenchRun(options.mode(), started, Instant.now(), options.thisSide(),
                options.mode() == BenchRun.Mode.HISTORY ? null : options.mode() == BenchRun.Mode.CALIBRATE
                        ? options.thisSide() : options.other(),
                options.runsPerSide(), options.loadPhaseDuration(), options.shard(), options.historyBuild(),
                comparisons, calibrations, options.resultsDir());
    }

    /**
     * An embedded engine shares the bench's JVM, and its JIT state outlives a run: without a warm-up
     * the first run (always this side's) would run colder code than every later one, a bias against
     * this. So, when a side is embedded, {@link io.stillwater.bench.scenarios.Read} (it runs on every
     * target and exercises the whole statement path) runs once on it with short load phases first,
     * and its results are discarded.
     */
    private void warmUp(TargetLauncher thisLauncher, TargetLauncher otherLauncher) {
        // Embedded sides share this JVM, so warming one warms both; jar and url sides have their own.
        TargetLauncher embedded = options.thisSide().target() instanceof io.stillwater.bench.targets.TargetSpec.Embedded
                ? thisLauncher
                : options.mode() == BenchRun.Mode.COMPARE
                        && options.other().target() instanceof io.stillwater.bench.targets.TargetSpec.Embedded
                        ? otherLauncher : null;
        if (embedded == null) {
            return;
        }
        ScenarioSource warmUp = ScenarioSource.of(io.stillwater.bench.scenarios.Read.class);
        progress.printf("warm-up (results discarded): %s, %d s load phases%n", warmUp.name(), WARM_UP.toSeconds());
        progress.flush();
        new Runner(WARM_UP).run(embedded, warmUp);
    }

    private static final Duration WARM_UP = Duration.ofSeconds(2);

    /** Runs this side, then compares with the stored results of the history build (same scenario version only). */
    private ScenarioComparison againstHistory(Runner runner, TargetLauncher thisLauncher, ScenarioSource s) {
        List<ScenarioResult> thisRuns = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int r = 1; r <= options.runsPerSide(); r++) {
            ScenarioResult result = runner.run(thisLauncher, s);
            thisRuns.add(result);
            if (result.status() != ScenarioResult.Status.COMPLETED) {
                problems.add("this run " + r + " " + result.status() + ": " + result.failure());
            }
        }
        var def = definition(s);
        if (def.isEmpty()) {
            return new ScenarioComparison(s.name(), thisRuns, List.of(), List.of(), problems);
        }
        List<ScenarioResult> stored;
        try {
            stored = history.results(options.historyBuild(), s.name());
        } catch (Exception e) {
            problems.add("reading the history of build " + options.historyBuild() + ": " + e);
            return new ScenarioComparison(s.name(), thisRuns, List.of(), List.of(), problems);
        }
        String version = def.get().version();
        List<ScenarioResult> comparable = stored.stream()
                .filter(r -> r.status() == ScenarioResult.Status.COMPLETED && r.version().equals(version)).toList();
        if (comparable.isEmpty()) {
            problems.add("build " + options.historyBuild() + " has no stored completed result of " + s.name() + " "
                    + version + (stored.isEmpty() ? "" : " (stored versions: "
                    + stored.stream().map(ScenarioResult::version).distinct().toList() + ")"));
            return new ScenarioComparison(s.name(), thisRuns, stored, List.of(), problems);
        }
        List<Map<String, ActionStatistics>> thisStats = thisRuns.stream()
                .filter(r -> r.status() == ScenarioResult.Status.COMPLETED).map(ScenarioResult::actions).toList();
        List<StatVerdict> verdicts = thisStats.isEmpty() ? List.of()
                : Verdicts.compare(thisStats, comparable.stream().map(ScenarioResult::actions).toList(),
                        def.get()::thresholdsFor);
        return new ScenarioComparison(s.name(), thisRuns, comparable, verdicts, problems);
    }

    private static java.util.Optional<ScenarioDefinition> definition(ScenarioSource s) {
        try {
            return java.util.Optional.of(s.constructor().get().definition());
        } catch (Throwable t) {
            return java.util.Optional.empty();
        }
    }
}
