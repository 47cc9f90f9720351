package io.stillwater.bench.cli;

import io.stillwater.bench.history.HistoryException;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.report.BenchReport;
import io.stillwater.bench.report.ReportFiles;
import io.stillwater.bench.report.TerminalTable;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.scenarios.GenericScenarios;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.TargetSpec;
import io.stillwater.bench.targets.Targets;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
                "Without options it compares the embedded engine with itself over every known scenario. The "
                        + "interactive-runtime scenarios (this = defaults, other = "
                        + "enable_compute_interactive_runtime=false) will become the default once the engine has "
                        + "clusters; today the generic scenarios run.",
                "",
                "Side parameters are read back with SHOW as mz_system after every launch; one that did not arrive "
                        + "fails the scenario. Every run is recorded in the history (--history, default "
                        + "DIR/history.sqlite) and written as report.html, report.json and junit.xml under --results DIR.",
                ""},
        footer = {"",
                "Exit status: 0 passed; 1 a scenario regressed, failed or missed a guarantee; 2 usage error.",
                "Examples:",
                "  stillwater bench --scenario Read --runs 5",
                "  stillwater bench --other jar:../main/cli/target/stillwater.jar",
                "  stillwater bench --this url:postgresql://postgres@127.0.0.1:5432/postgres --other embedded",
                "  stillwater bench --other-params 'enable_compute_interactive_runtime=false'",
                "  stillwater bench --calibrate --runs 5 --shard 0/4"})
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--this", paramLabel = "TARGET", defaultValue = "embedded",
            description = "The side under test (default: ${DEFAULT-VALUE}).")
    String thisTarget;

    @Option(names = "--other", paramLabel = "TARGET",
            description = "The side to compare with (default: embedded).")
    String otherTarget;

    @Option(names = "--this-params", paramLabel = "NAME=VALUE;...", defaultValue = "",
            description = "System parameter defaults for this side, applied before any replica exists (url targets: "
                    + "ALTER SYSTEM as mz_system, else the scenario is skipped). An unknown parameter fails the "
                    + "scenario; it is never ignored.")
    String thisParams;

    @Option(names = "--other-params", paramLabel = "NAME=VALUE;...",
            description = "System parameter defaults for the other side, as --this-params.")
    String otherParams;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3",
            description = "Runs per side, interleaved; the verdict compares each side's median (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run only this scenario (repeatable). See --list.")
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

    private final List<ScenarioSource> known;
    private BenchRun lastRun;

    /** Every scenario this build knows. */
    public BenchCommand() {
        this(GenericScenarios.all());
    }

    public BenchCommand(List<ScenarioSource> known) {
        this.known = List.copyOf(known);
    }

    /** The run the last {@link #call()} produced, or null (listing, usage error). */
    public BenchRun lastRun() {
        return lastRun;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Shard sh = parse(() -> Shard.parse(shard));
        if (list) {
            list(out, sh);
            return 0;
        }
        List<ScenarioSource> selected = parse(() -> ScenarioSelection.select(known, scenarios, sh));
        RunMode mode = calibrate ? RunMode.CALIBRATE
                : historyBuild != null ? RunMode.COMPARE_TO_HISTORY : RunMode.COMPARE;
        if (calibrate && historyBuild != null) {
            throw usage("--calibrate and --compare-to-history exclude each other");
        }
        if (mode != RunMode.COMPARE && (otherTarget != null || otherParams != null)) {
            throw usage((calibrate ? "--calibrate runs this side against itself" : "--compare-to-history compares with "
                    + "stored results") + "; --other and --other-params do not apply");
        }
        if (loadPhaseSeconds != null && loadPhaseSeconds < 1) {
            throw usage("--load-phase-duration must be at least 1 second, got " + loadPhaseSeconds);
        }
        if (runs < 1) {
            throw usage("--runs must be at least 1, got " + runs);
        }
        SideConfig thisSide = new SideConfig(parse(() -> TargetSpec.parse(thisTarget)),
                parse(() -> SideParams.parse(thisParams)));
        SideConfig otherSide = new SideConfig(parse(() -> TargetSpec.parse(otherTarget == null ? "embedded" : otherTarget)),
                parse(() -> SideParams.parse(otherParams)));
        boolean embedded = thisSide.target() instanceof TargetSpec.Embedded
                || mode == RunMode.COMPARE && otherSide.target() instanceof TargetSpec.Embedded;
        if (embedded && !Targets.embeddedAvailable()) {
            throw usage("the embedded target is not available in this build; use jar:PATH or url:...");
        }
        Path historyPath = historyFile != null ? historyFile : results.resolve("history.sqlite");
        if (mode == RunMode.COMPARE_TO_HISTORY && !Files.exists(historyPath)) {
            throw usage("--compare-to-history " + historyBuild + " reads the results history " + historyPath
                    + ", which does not exist; record a run of that build first, or pass --history FILE");
        }
        if (scenarios.isEmpty()) {
            out.println("note: the interactive-runtime scenarios are not built yet; running the generic scenarios");
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
        try {
            history = HistoryStore.open(historyPath);
        } catch (HistoryException e) {
            if (mode == RunMode.COMPARE_TO_HISTORY) {
                throw usage(e.getMessage());
            }
            // the run still measures and reports; losing its record is a failure of the invocation
            err.println("stillwater bench: " + e.getMessage() + "; this run will not be recorded");
            history = null;
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
                long id = history.recordRun(info, run.comparisons());
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
        try {
            ReportFiles.Written w = ReportFiles.writeAll(report, results);
            out.println("reports: " + w.html() + ", " + w.json() + ", " + w.junit()
                    + (history == null ? "" : "; history: " + history.file()));
        } catch (IOException | RuntimeException e) {
            ok = false;
            err.println("stillwater bench: writing the reports to " + results + " failed: " + e);
        }
        out.flush();
        err.flush();
        return ok;
    }

    private void list(PrintWriter out, Shard sh) {
        out.printf("%-26s %-8s %-30s %s%n", "SCENARIO", "VERSION", "REQUIRES", "SHARD (of " + sh.count() + ")");
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
            out.printf("%-26s %-8s %-30s %d%n", s.name(), version, requires, Shard.of(s.name(), sh.count()));
        }
    }

    private interface Parse<T> {
        T get();
    }

    private <T> T parse(Parse<T> p) {
        try {
            return p.get();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
