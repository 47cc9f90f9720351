package io.stillwater.bench.feature.cli;

import io.stillwater.bench.cli.BenchCommand;
import io.stillwater.bench.cli.CommandFlow;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.cli.SideOptions;
import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.run.FeatureCalibration;
import io.stillwater.bench.feature.run.FeatureHistory;
import io.stillwater.bench.feature.run.FeatureRunner;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.FeatureSession;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.history.HistoryException;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.SideInfo;
import io.stillwater.bench.history.StoredRun;
import io.stillwater.bench.report.FeatureReport;
import io.stillwater.bench.report.ProgressBar;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code stillwater feature-bench}: the feature benchmark. Runs each selected scenario on this and
 * on other (run 1), re-runs the ones that regressed (see {@link RerunPolicy}), prints the verdict
 * table, records the run in the history and writes feature-report.html, feature-report.json and
 * feature-junit.xml. Exit status 0 when nothing regressed or failed, 1 otherwise (or when the results
 * could not be recorded or written), 2 on a usage error (bad --scale or --shard, unknown scenario or group,
 * bad target, duplicate scenarios, --compare-to-history with --other or without a stored run of its build).
 * With --compare-to-history only this side runs, against the stored this-side samples of a build.
 *
 * <p>The scenario catalog is a constructor parameter so tests can run the command over scenarios of
 * their own; the default looks up {@value #CATALOG_CLASS}{@code .all()}.
 */
@Command(name = "feature-bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Run the feature benchmark: the cost of one feature at a time, precisely, this against other. Each "
                        + "scenario sets up its data (SCALE: 10^SCALE rows), then times one piece of work again and "
                        + "again on a fresh connection: the span from the statement marked /* A */ to the end of the "
                        + "one marked /* B */, plus the engine's memory after each measurement.",
                "",
                "Stopping rule: each side run discards 2 warm-up samples per metric, then measures until the 95%% "
                        + "confidence interval of every metric's median is no wider than 10%% of the median (at least "
                        + "6 samples kept), or --max-measurements is reached (the report says which).",
                "",
                "Verdicts compare the medians of this and other: wallclock regresses when this is more than 10%% "
                        + "slower, memory when it uses more than 20%% more (a scenario may set its own thresholds). "
                        + "The table says what 'this' is: \"N%% slower\", \"N times faster\", \"within 10%%\".",
                "",
                "Re-runs: every scenario runs once per side; one that regressed is run again on both sides until "
                        + "it has --runs-per-scenario runs, and is judged on the samples of all runs pooled (never "
                        + "the best run, never 'every run regressed').",
                "",
                "Noise: --calibrate runs this side against itself for every scenario and records the run-to-run "
                        + "spread of each metric's median. Every later run shows it in a SPREAD column beside the "
                        + "threshold (e.g. +-4%%) and marks '!' a threshold tighter than twice that spread: such a "
                        + "threshold can fire on noise alone, so treat its verdict with care (or widen it).",
                "",
                "Targets (--this, --other) and parameters (--this-params, --other-params) are those of 'stillwater "
                        + "bench'. Without --other and --other-params, other is the embedded engine with "
                        + BenchCommand.MAIN_JOB_OTHER_PARAMS + ". The effective value of every parameter a scenario "
                        + "depends on is read back from each side and printed under the scenario.",
                ""},
        footer = {"",
                "Exit status: 0 nothing regressed or failed; 1 a scenario regressed or failed; 2 usage error.",
                "Examples:",
                "  stillwater feature-bench --list",
                "  stillwater feature-bench          (every scenario; other = interactive runtime off)",
                "  stillwater feature-bench --root-scenario InteractiveRuntime",
                "  stillwater feature-bench --scenario PeekDataflowJoin --scale -1",
                "  stillwater feature-bench --max-measurements 10 --runs-per-scenario 1",
                "  stillwater feature-bench --other jar:../main/stillwater.jar --other-params ''",
                "  stillwater feature-bench --calibrate --runs-per-scenario 3   (A/A: measure the noise)",
                "  stillwater feature-bench --this url:postgresql://postgres@127.0.0.1/postgres",
                "  stillwater feature-bench --shard 1/4   (a quarter of the scenarios, by Shard's CRC32 rule)",
                "  stillwater feature-bench --compare-to-history base   (this side only, against the stored "
                        + "samples of build base)"})
public final class FeatureBenchCommand implements Callable<Integer> {
    /** The class whose static {@code all()} lists every scenario class, in catalog order. */
    public static final String CATALOG_CLASS = "io.stillwater.bench.feature.scenarios.FeatureCatalog";
    /** Runs per scenario and side at most, when a scenario regressed in its first run. */
    public static final int DEFAULT_RUNS_PER_SCENARIO = 3;

    @Mixin
    SideOptions sides = new SideOptions();

    @Option(names = "--list", description = "List the scenarios (group path, SCALE, FIXED_SCALE, requirements, "
            + "version) and the groups, and exit. With --scenario or --root-scenario, only those.")
    boolean list;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run only this scenario (repeatable; the class's simple name). See --list.")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--root-scenario", paramLabel = "GROUP",
            description = "Run every scenario below this group (a group's or scenario's class name), e.g. Dataflow.")
    String root;

    @Option(names = "--shard", paramLabel = "I/N", defaultValue = "0/1",
            description = "Run only shard I (0-based) of N: the scenarios whose name's CRC32 (UTF-8) mod N is I, "
                    + "after --scenario/--root-scenario. Stable across machines and builds.")
    String shard;

    @Option(names = "--compare-to-history", paramLabel = "BUILD",
            description = "Compare this side with the stored results of BUILD instead of running another side: the "
                    + "this-side samples of BUILD's latest feature-bench run (recorded with --build BUILD). Scenarios "
                    + "stored with another version or scale are skipped.")
    String historyBuild;

    @Option(names = "--scale", paramLabel = "S",
            description = "Rows = 10^S for every scenario (e.g. 4), or relative with a sign (e.g. -1, +0.5: added to "
                    + "each scenario's SCALE). Scenarios with FIXED_SCALE keep theirs.")
    String scale;

    @Option(names = "--max-measurements", paramLabel = "N",
            description = "Measurements per side run at most, warm-up included (default: 20).")
    Integer maxMeasurements;

    @Option(names = "--runs-per-scenario", paramLabel = "N", defaultValue = "" + DEFAULT_RUNS_PER_SCENARIO,
            description = "Runs per side at most for a scenario that regressed in its first run; its verdict is then "
                    + "taken from all runs together (default: ${DEFAULT-VALUE}).")
    int runsPerScenario;

    @Option(names = "--calibrate",
            description = "A/A: run this side against itself, --runs-per-scenario runs per side (at least 2) for "
                    + "EVERY scenario, and record in the history each scenario's run-to-run spread of the median per "
                    + "metric (max/min - 1 of the per-run medians). Later runs show it beside each threshold and flag "
                    + "a threshold tighter than twice it with '!'. Excludes --other and --other-params.")
    boolean calibrate;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "Directory for feature-report.html, feature-report.json and feature-junit.xml (default: "
                    + "${DEFAULT-VALUE}).")
    Path results;

    @Option(names = "--history", paramLabel = "FILE",
            description = "The SQLite results history the run is recorded in and --compare-to-history reads, shared "
                    + "with 'stillwater bench' (default: DIR/history.sqlite of --results).")
    Path historyFile;

    @Option(names = "--build", paramLabel = "LABEL", defaultValue = "dev",
            description = "The label this side is recorded under in the history; what a later --compare-to-history "
                    + "LABEL looks up (default: ${DEFAULT-VALUE}).")
    String build;

    @Spec
    CommandSpec spec;

    private final Supplier<List<Class<? extends FeatureScenario>>> catalog;
    private FeatureReport lastReport;
    /** The flow shared with the parallel bench's command; made per {@link #call()}. */
    private CommandFlow flow;

    /** The command over the real catalog ({@value #CATALOG_CLASS}). */
    public FeatureBenchCommand() {
        this(FeatureBenchCommand::defaultCatalog);
    }

    /** The command over {@code catalog} (tests pass scenarios of their own). */
    public FeatureBenchCommand(Supplier<List<Class<? extends FeatureScenario>>> catalog) {
        this.catalog = catalog;
    }

    /** The report of the last {@link #call()} that ran scenarios, or null. */
    public FeatureReport lastReport() {
        return lastReport;
    }

    @Override
    public Integer call() {
        flow = new CommandFlow(spec, "stillwater feature-bench");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Class<? extends FeatureScenario>> known;
        try {
            known = catalog.get();
        } catch (IllegalStateException e) {
            err.println("stillwater feature-bench: " + e.getMessage());
            err.flush();
            return 1;
        }
        if (calibrate && (runsPerScenario < 2 || !sides.otherUnset())) {
            throw usage(runsPerScenario < 2 ? "--calibrate needs --runs-per-scenario of at least 2 (one run has no "
                    + "spread), got " + runsPerScenario : "--calibrate runs this side against itself; drop --other "
                    + "and --other-params");
        }
        if (runsPerScenario < 1) {
            throw usage("--runs-per-scenario must be at least 1, got " + runsPerScenario);
        }
        int max = maxMeasurements == null ? MeasurementPolicy.DEFAULT.maxMeasurements() : maxMeasurements;
        if (max < 1) {
            throw usage("--max-measurements must be at least 1, got " + max);
        }
        ScaleOption scaleOption = scale == null ? ScaleOption.NONE : parse("--scale", () -> ScaleOption.parse(scale));
        Shard sh = parse("--shard", () -> Shard.parse(shard));
        List<Class<? extends FeatureScenario>> selected = parse(null, () -> FeatureSuite.select(known, root, scenarios))
                .stream().filter(c -> sh.contains(c.getSimpleName())).toList();
        if (list) {
            FeatureListing.list(out, known, selected, sh);
            return 0;
        }
        // instantiates and checks every selected scenario (markers, duplicates) before anything launches
        FeatureSuite suite = parse(null, () -> FeatureSuite.load(selected, scaleOption));
        TargetSpec thisSpec = parse("--this", () -> TargetSpec.parse(sides.thisTarget()));
        SideParams thisSideParams = parse("--this-params", () -> SideParams.parse(sides.thisParams()));
        if (historyBuild != null) {
            return againstHistory(suite, thisSpec, thisSideParams, max, sh);
        }
        // The main job's other side: only when neither --other nor --other-params is given, so that
        // comparing two builds never silently changes one's flags.
        boolean defaultOther = sides.otherUnset();
        TargetSpec otherSpec = calibrate ? thisSpec : parse("--other", () -> TargetSpec.parse(sides.otherTarget()));
        SideParams otherSideParams = calibrate ? thisSideParams : parse("--other-params",
                () -> SideParams.parse(defaultOther ? BenchCommand.MAIN_JOB_OTHER_PARAMS : sides.otherParamsOrNull()));
        flow.requireEmbedded(thisSpec instanceof TargetSpec.Embedded || otherSpec instanceof TargetSpec.Embedded);
        if (suite.scenarios().isEmpty()) {
            out.println("no scenario selected" + (sh.equals(Shard.ALL) ? "" : " in shard " + sh) + "; nothing to run");
            return 0;
        }

        out.println("this:  " + describe(thisSpec, thisSideParams));
        out.println("other: " + describe(otherSpec, otherSideParams) + (calibrate ? "   (--calibrate: A/A, this "
                + "side against itself, " + runsPerScenario + " runs per side for every scenario)" : defaultOther
                ? "   (the default other side; --other-params '' compares with the engine's defaults)" : ""));
        if (!calibrate && thisSpec.equals(otherSpec) && thisSideParams.equals(otherSideParams)) {
            out.println("note: this and other are the same configuration, so this is an A/A comparison; use --other "
                    + "or --other-params to compare something");
        }
        out.println(suite.scenarios().size() + (suite.scenarios().size() == 1 ? " scenario" : " scenarios")
                + ", at most " + max + " measurements per side run, up to " + runsPerScenario
                + (calibrate ? " runs per side for every scenario (A/A)" : " runs per scenario when one regresses"));
        out.flush();

        // the run still measures and reports; losing its record fails the invocation
        HistoryStore history = flow.openForRecording(CommandFlow.historyPath(historyFile, results), err);
        try {
            Instant started = Instant.now();
            List<String> names = suite.scenarios().stream().map(FeatureScenario::name).toList();
            List<List<String>> groups = suite.scenarios().stream().map(s -> FeatureSuite.groupPath(s.getClass()))
                    .toList();
            ProgressPrinter progress = new ProgressPrinter(err, ProgressBar.display(),
                    ProgressPrinter.labels(names, groups));
            Set<String> sideParamNames = new TreeSet<>(thisSideParams.values().keySet());
            sideParamNames.addAll(otherSideParams.values().keySet());
            FeatureRunner runner = new FeatureRunner(MeasurementPolicy.DEFAULT.withMaxMeasurements(max), progress);
            FeatureSession session = new FeatureSession(runner, new RerunPolicy(runsPerScenario), progress);
            List<FeatureScenarioResult> outcome;
            try {
                outcome = calibrate
                        ? new FeatureCalibration(runner, runsPerScenario, progress).run(suite,
                                Targets.launcher(thisSpec, thisSideParams), sideParamNames)
                        : session.run(suite, Targets.launcher(thisSpec, thisSideParams),
                                Targets.launcher(otherSpec, otherSideParams), sideParamNames);
            } finally {
                progress.finish();
            }
            Instant finished = Instant.now();
            RunInfo info = new RunInfo(started, finished, RunMode.FEATURE, RunInfo.FRAMEWORK_VERSION,
                    new SideInfo(build, thisSpec.display(), thisSideParams.values()),
                    new SideInfo(otherSpec instanceof TargetSpec.Embedded ? build : otherSpec.display(),
                            otherSpec.display(), otherSideParams.values()),
                    runsPerScenario, null, RunInfo.hostFacts());
            FeatureResults recorded = new FeatureResults(flow, calibrate, scale, results);
            boolean ok = recorded.finish(info, outcome, max, history, out, err);
            lastReport = recorded.report();
            return ok && !lastReport.failed() ? 0 : 1;
        } finally {
            if (history != null) {
                history.close();
            }
        }
    }

    /**
     * {@code --compare-to-history BUILD}: this side only, against the this-side samples of BUILD's
     * latest feature run. Recorded as a FEATURE run whose other side is {@code history:BUILD}; its this
     * side keeps {@code --build}, so only real measurements of a build are ever found under its label.
     */
    private int againstHistory(FeatureSuite suite, TargetSpec thisSpec, SideParams thisSideParams, int max, Shard sh) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        flow.calibrateExcludesHistory(calibrate, historyBuild);
        if (!sides.otherUnset()) {
            throw usage("--compare-to-history compares with stored results; --other and --other-params do not apply");
        }
        flow.requireEmbedded(thisSpec instanceof TargetSpec.Embedded);
        Path historyPath = CommandFlow.historyPath(historyFile, results);
        if (!Files.exists(historyPath)) {
            throw usage("--compare-to-history " + historyBuild + " reads the results history " + historyPath
                    + ", which does not exist; record a feature-bench run of that build first (--build "
                    + historyBuild + "), or pass --history FILE");
        }
        HistoryStore history;
        try {
            history = HistoryStore.open(historyPath);
        } catch (HistoryException e) {
            throw usage(e.getMessage());
        }
        try {
            StoredRun stored = history.latestFeatureRun(historyBuild).orElse(null);
            if (stored == null) {
                List<String> builds = history.featureBuilds();
                throw usage("--compare-to-history: " + historyPath + " has no feature-bench run of build "
                        + historyBuild + "; " + (builds.isEmpty() ? "it has no feature-bench runs at all"
                        : "builds with feature-bench runs: " + String.join(", ", builds)));
            }
            if (suite.scenarios().isEmpty()) {
                out.println("no scenario selected" + (sh.equals(Shard.ALL) ? "" : " in shard " + sh)
                        + "; nothing to run");
                return 0;
            }
            SideInfo storedThis = stored.info().thisSide();
            out.println("this:  " + describe(thisSpec, thisSideParams));
            out.println("other: history:" + historyBuild + " (run " + stored.id() + " of " + stored.info().started()
                    + ", " + storedThis.target() + (storedThis.params().isEmpty() ? " (defaults)"
                    : ", " + storedThis.paramsText()) + "; its this-side samples)");
            out.println(suite.scenarios().size() + (suite.scenarios().size() == 1 ? " scenario" : " scenarios")
                    + ", at most " + max + " measurements per run of this side, up to " + runsPerScenario
                    + " runs of this side per scenario when one regresses");
            out.flush();
            Instant started = Instant.now();
            ProgressPrinter progress = new ProgressPrinter(err, ProgressBar.display(), ProgressPrinter.labels(
                    suite.scenarios().stream().map(FeatureScenario::name).toList(),
                    suite.scenarios().stream().map(s -> FeatureSuite.groupPath(s.getClass())).toList()));
            FeatureRunner runner = new FeatureRunner(MeasurementPolicy.DEFAULT.withMaxMeasurements(max), progress);
            FeatureSession session = new FeatureSession(runner, new RerunPolicy(runsPerScenario), progress);
            List<FeatureScenarioResult> outcome;
            try {
                outcome = session.runAgainstHistory(suite, Targets.launcher(thisSpec, thisSideParams), historyBuild,
                        FeatureHistory.thisSide(history, stored.id()), new TreeSet<>(thisSideParams.values().keySet()));
            } finally {
                progress.finish();
            }
            RunInfo info = new RunInfo(started, Instant.now(), RunMode.FEATURE, RunInfo.FRAMEWORK_VERSION,
                    new SideInfo(build, thisSpec.display(), thisSideParams.values()),
                    new SideInfo(historyBuild, "history:" + historyBuild, storedThis.params()),
                    runsPerScenario, null, RunInfo.hostFacts());
            FeatureResults recorded = new FeatureResults(flow, calibrate, scale, results);
            boolean ok = recorded.finish(info, outcome, max, history, out, err);
            lastReport = recorded.report();
            return ok && !lastReport.failed() ? 0 : 1;
        } finally {
            history.close();
        }
    }

    /** {@code embedded (defaults)} or {@code embedded, enable_compute_interactive_runtime=false}. */
    static String describe(TargetSpec target, SideParams params) {
        return target.display() + (params.isEmpty() ? " (defaults)" : ", " + params.render());
    }

    /** {@value #CATALOG_CLASS}{@code .all()}, looked up when the command runs (the catalog is optional at build time). */
    @SuppressWarnings("unchecked")
    static List<Class<? extends FeatureScenario>> defaultCatalog() {
        try {
            Method all = Class.forName(CATALOG_CLASS).getMethod("all");
            return (List<Class<? extends FeatureScenario>>) all.invoke(null);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException("this build has no feature-bench scenario catalog (" + CATALOG_CLASS
                    + ".all() is missing); build stillwater with the bench module's scenarios", e);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read the feature-bench scenario catalog " + CATALOG_CLASS
                    + ".all(): " + (e.getCause() == null ? e : e.getCause()), e);
        }
    }

    private interface Parse<T> {
        T get();
    }

    /** Runs {@code p}; an IllegalArgumentException (bad value, unknown name, duplicate scenarios) is a usage error. */
    private <T> T parse(String option, Parse<T> p) {
        return flow.parse(option, p::get);
    }

    private CommandLine.ParameterException usage(String message) {
        return flow.usage(message);
    }
}
