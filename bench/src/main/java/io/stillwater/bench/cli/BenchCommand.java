package io.stillwater.bench.cli;

import io.stillwater.bench.history.HistoryException;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.report.BenchReport;
import io.stillwater.bench.report.ReportFiles;
import io.stillwater.bench.report.TerminalTable;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.scenarios.Suite;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code stillwater bench}: the parallel benchmark. Runs scenarios on two sides (this and other),
 * interleaved, and gates this against other by the median of each side's runs. Exit status 0 when
 * every scenario passed (or was skipped for a missing capability), 1 when any regressed, failed or
 * missed a guarantee, was INVALID, or its results could not be recorded or written, 2 on a usage error.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Run the parallel benchmark: load scenarios against two sides, 'this' and 'other', in interleaved runs "
                        + "(this, other, this, other, ...), and gate this against other by each side's median.",
                "",
                "Targets (--this, --other):",
                "  embedded    a fresh in-process engine per scenario run, in a temp dir",
                "  jar:PATH    another build, started as 'java -jar PATH serve' per run",
                "  url:postgresql://USER[:PASSWORD]@HOST[:PORT]/DB",
                "              an existing server (PostgreSQL, Materialize, Stillwater)",
                "Scenarios that need something a target lacks (indexes, clusters, introspection, ...) are skipped "
                        + "on it with the reason.",
                "",
                "Without options it runs the main job: the interactive-runtime scenarios on the embedded engine, "
                        + "this = defaults, other = enable_compute_interactive_runtime=false (the default of "
                        + "--other-params when --other is not given), " + BenchCommand.MAIN_JOB_RUNS
                        + " runs per side, and writes the reports under results/. --suite generic|all and --scenario "
                        + "choose other scenarios.",
                "",
                "Side parameters are read back with SHOW as mz_system after every launch; one that did not arrive "
                        + "fails the scenario. Every run is recorded in the history (--history, default "
                        + "DIR/history.sqlite) and written as report.html, report.json and junit.xml under --results DIR.",
                ""},
        footer = {"",
                "Exit status: 0 passed; 1 a scenario regressed, failed or missed a guarantee; 2 usage error.",
                "Examples:",
                "  stillwater bench                                   (the main job)",
                "  stillwater bench --runs 3 --load-phase-duration 30",
                "  stillwater bench --suite generic --other-params ''",
                "  stillwater bench --scenario Read --runs 5",
                "  stillwater bench --other jar:../main/cli/target/stillwater.jar",
                "  stillwater bench --this url:postgresql://postgres@127.0.0.1:5432/postgres --other embedded",
                "  stillwater bench --other-params 'enable_compute_interactive_runtime=false'",
                "  stillwater bench --calibrate --runs 5 --shard 0/4"})
public final class BenchCommand implements Callable<Integer> {

    @Mixin
    SideOptions sides = new SideOptions();

    @Option(names = "--runs", paramLabel = "N", defaultValue = "" + MAIN_JOB_RUNS,
            description = "Runs per side, interleaved; the verdict compares each side's median (default: "
                    + "${DEFAULT-VALUE}, so the main job fits in 10 minutes on a 2-core machine; use 3 or more where a "
                    + "verdict gates a release).")
    int runs;

    @Option(names = "--suite", paramLabel = "SET",
            description = "Which scenarios to run when no --scenario is given: interactive (the default: the "
                    + "interactive-runtime scenarios), generic (those that also run on PostgreSQL) or all.")
    String suite;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run only this scenario (repeatable), from every known one. See --list.")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--list", description = "List the known scenarios (version, requirements, shard) and exit.")
    boolean list;

    @Option(names = "--shard", paramLabel = "I/N", defaultValue = "0/1",
            description = "Run only shard I (0-based) of N: the scenarios whose name's CRC32 (UTF-8) mod N is I. "
                    + "Stable across machines and builds.")
    String shard;

    @Option(names = "--load-phase-duration", paramLabel = "SECONDS",
            description = "Override the duration of every load phase of every scenario.")
    Integer loadPhaseSeconds;

    @Option(names = "--calibrate",
            description = "A/A: run this side against itself and record the run-to-run spread of every stat, to "
                    + "check thresholds against measured noise.")
    boolean calibrate;

    @Option(names = "--compare-to-history", paramLabel = "BUILD",
            description = "Compare this side with the stored results of BUILD instead of running another side.")
    String historyBuild;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "Directory for report.html, report.json and junit.xml (default: ${DEFAULT-VALUE}).")
    Path results;

    @Option(names = "--history", paramLabel = "FILE",
            description = "The SQLite results history every run is recorded in, and --compare-to-history and "
                    + "calibrations are read from (default: DIR/history.sqlite of --results).")
    Path historyFile;

    @Option(names = "--build", paramLabel = "LABEL", defaultValue = "dev",
            description = "The label this side's results are recorded under in the history (e.g. a git revision); "
                    + "what a later --compare-to-history LABEL looks up (default: ${DEFAULT-VALUE}).")
    String build;

    @Spec
    CommandSpec spec;

    /**
     * Runs per side by default, budgeted for the main job: its seven scenarios take 2 min 45 s for one
     * run on each side on the 2-core machine (14 load phases of 10 s, the rest setup, hydration and
     * cleanup; measured 2026-12-02 with other helpers' builds running), and two runs per side took
     * 5 min 32 s, inside the 10-minute budget with room for a slower machine, and the median of
     * two is less at the mercy of one noisy run than a single run. Gates that decide a release should
     * pass {@code --runs 3} or more.
     */
    public static final int MAIN_JOB_RUNS = 2;
    /** The other side of the main job: the same engine with one runtime per replica. */
    public static final String MAIN_JOB_OTHER_PARAMS = "enable_compute_interactive_runtime=false";

    private final List<ScenarioSource> known = Suite.all();
    /** The flow shared with the feature bench's command; made per {@link #call()}. */
    private CommandFlow flow;
    private BenchRun lastRun;

    /** The run the last {@link #call()} produced, or null (listing, usage error). */
    public BenchRun lastRun() {
        return lastRun;
    }

    @Override
    public Integer call() {
        flow = new CommandFlow(spec, "stillwater bench");
        PrintWriter out = spec.commandLine().getOut();
        Shard sh = parse(() -> Shard.parse(shard));
        if (list) {
            list(out, sh);
            return 0;
        }
        if (suite != null && !scenarios.isEmpty()) {
            throw usage("--suite and --scenario exclude each other: --scenario picks from every known scenario");
        }
        Suite set = parse(() -> suite(suite));
        List<ScenarioSource> selected = parse(() -> ScenarioSelection.select(
                scenarios.isEmpty() ? set.scenarios() : known, scenarios, sh));
        RunMode mode = calibrate ? RunMode.CALIBRATE
                : historyBuild != null ? RunMode.COMPARE_TO_HISTORY : RunMode.COMPARE;
        flow.calibrateExcludesHistory(calibrate, historyBuild);
        if (mode != RunMode.COMPARE && !sides.otherUnset()) {
            throw usage((calibrate ? "--calibrate runs this side against itself" : "--compare-to-history compares with "
                    + "stored results") + "; --other and --other-params do not apply");
        }
        if (loadPhaseSeconds != null && loadPhaseSeconds < 1) {
            throw usage("--load-phase-duration must be at least 1 second, got " + loadPhaseSeconds);
        }
        if (runs < 1) {
            throw usage("--runs must be at least 1, got " + runs);
        }
        SideConfig thisSide = new SideConfig(parse(() -> TargetSpec.parse(sides.thisTarget())),
                parse(() -> SideParams.parse(sides.thisParams())));
        // The main job's other side: the embedded engine with one runtime per replica. Only when neither
        // --other nor --other-params is given: comparing two builds must not silently change one's flags.
        boolean mainJobOther = mode == RunMode.COMPARE && sides.otherUnset();
        SideConfig otherSide = new SideConfig(parse(() -> TargetSpec.parse(sides.otherTarget())),
                parse(() -> SideParams.parse(mainJobOther ? MAIN_JOB_OTHER_PARAMS : sides.otherParamsOrNull())));
        boolean embedded = thisSide.target() instanceof TargetSpec.Embedded
                || mode == RunMode.COMPARE && otherSide.target() instanceof TargetSpec.Embedded;
        flow.requireEmbedded(embedded);
        Path historyPath = CommandFlow.historyPath(historyFile, results);
        if (mode == RunMode.COMPARE_TO_HISTORY && !Files.exists(historyPath)) {
            throw usage("--compare-to-history " + historyBuild + " reads the results history " + historyPath
                    + ", which does not exist; record a run of that build first, or pass --history FILE");
        }
        if (mainJobOther) {
            out.println("note: other = " + otherSide + " (the default other side; --other-params '' compares with "
                    + "the engine's defaults)");
        }
        if (mode == RunMode.COMPARE && thisSide.equals(otherSide)) {
            // An A/B that compares a configuration with itself must say so, not pass silently as one.
            out.println("note: this and other are the same configuration (" + thisSide + "), so this is an A/A "
                    + "comparison; use --other or --other-params to compare something");
        }
        if (selected.isEmpty()) {
            out.println("no scenario in shard " + sh + "; nothing to run");
            return 0;
        }
        var options = new BenchSession.Options(mode, thisSide, otherSide, runs,
                loadPhaseSeconds == null ? null : Duration.ofSeconds(loadPhaseSeconds), selected, sh,
                historyBuild == null ? "" : historyBuild);
        PrintWriter err = spec.commandLine().getErr();
        HistoryStore history;
        if (mode == RunMode.COMPARE_TO_HISTORY) {
            try {
                history = HistoryStore.open(historyPath);
            } catch (HistoryException e) {
                throw usage(e.getMessage());
            }
        } else {
            // the run still measures and reports; losing its record is a failure of the invocation
            history = flow.openForRecording(historyPath, err);
        }
        try {
            lastRun = new BenchSession(options, out, history, BenchSession.progressBars(System.err)).execute();
            return finish(lastRun, history, out, err) && lastRun.passed() ? 0 : 1;
        } finally {
            if (history != null) {
                history.close();
            }
        }
    }

    /**
     * Records the run in the history (with its calibrations), prints the verdict table and writes the
     * report files. Each step runs even if an earlier one failed.
     *
     * @return whether every step succeeded (results that were not written fail the invocation)
     */
    private boolean finish(BenchRun run, HistoryStore history, PrintWriter out, PrintWriter err) {
        boolean ok = history != null;
        RunInfo info = BenchResults.runInfo(run, build);
        if (history != null) {
            try {
                long id = ComparisonHistory.record(history, info, run.comparisons());
                if (!run.calibrations().isEmpty()) {
                    history.saveCalibration(id, run.calibrations());
                }
            } catch (RuntimeException e) {
                ok = false;
                err.println("stillwater bench: recording the run in " + history.file() + " failed: " + e.getMessage());
            }
        }
        BenchReport report = BenchResults.report(run, info, history);
        out.println();
        out.print(TerminalTable.render(report, TerminalTable.DEFAULT_WIDTH, TerminalTable.Detail.GATED));
        ok &= flow.writeReports(() -> ReportFiles.writeAll(report, results), results,
                history == null ? "" : "; history: " + history.file(), out, err);
        out.flush();
        err.flush();
        return ok;
    }

    private static Suite suite(String name) {
        if (name == null) {
            return Suite.INTERACTIVE;
        }
        for (Suite s : Suite.values()) {
            if (s.name().equalsIgnoreCase(name.strip())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown --suite " + name + "; choose interactive, generic or all");
    }

    private void list(PrintWriter out, Shard sh) {
        List<String> interactive = Suite.INTERACTIVE.scenarios().stream().map(ScenarioSource::name).toList();
        out.printf("%-34s %-11s %-8s %-12s %s%n", "SCENARIO", "SUITE", "VERSION", "SHARD (of " + sh.count() + ")",
                "REQUIRES");
        for (ScenarioSource s : known) {
            if (!sh.contains(s.name())) {
                continue;
            }
            String version;
            String requires;
            try {
                ScenarioDefinition d = s.constructor().get().definition();
                version = d.version();
                requires = d.requires().isEmpty() ? "-" : d.requires().stream().map(Enum::name).sorted().toList().toString();
            } catch (RuntimeException e) {
                version = "?";
                requires = "(cannot be built: " + e.getMessage() + ")";
            }
            out.printf("%-34s %-11s %-8s %-12d %s%n", s.name(), interactive.contains(s.name()) ? "interactive" : "generic",
                    version, Shard.of(s.name(), sh.count()), requires);
        }
    }

    private interface Parse<T> {
        T get();
    }

    private <T> T parse(Parse<T> p) {
        return flow.parse(null, p::get);
    }

    private CommandLine.ParameterException usage(String message) {
        return flow.usage(message);
    }
}
