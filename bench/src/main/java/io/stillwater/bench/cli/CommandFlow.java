package io.stillwater.bench.cli;

import io.stillwater.bench.history.HistoryException;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.report.ReportFiles;
import io.stillwater.bench.targets.Targets;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The flow both bench commands ({@link BenchCommand}, {@code feature.cli.FeatureBenchCommand}) share
 * around what they run: usage errors, the side checks, where the history file is and how it is
 * opened for recording, and writing the report files. Each command keeps its own options (their help
 * texts differ) and says only what differs. One instance per {@code call()}; not thread-safe.
 */
public final class CommandFlow {
    private final CommandSpec spec;
    private final String command;

    /** @param command the command's name in messages, e.g. "stillwater bench" */
    public CommandFlow(CommandSpec spec, String command) {
        this.spec = spec;
        this.command = command;
    }

    /** A usage error: picocli prints it with the usage and exits 2. */
    public CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * Runs {@code p}; an IllegalArgumentException (bad value, unknown name) is a usage error, prefixed
     * with {@code option} unless null or already named in the message.
     */
    public <T> T parse(String option, Supplier<T> p) {
        try {
            return p.get();
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            throw usage(option == null || m.contains(option) ? m : option + ": " + m);
        }
    }

    /** {@code --calibrate} (A/A) and {@code --compare-to-history} are two different other sides. */
    public void calibrateExcludesHistory(boolean calibrate, String historyBuild) {
        if (calibrate && historyBuild != null) {
            throw usage("--calibrate and --compare-to-history exclude each other");
        }
    }

    /** A side that is embedded needs the embedded target on the class path (the CLI's jar has it). */
    public void requireEmbedded(boolean anySideEmbedded) {
        if (anySideEmbedded && !Targets.embeddedAvailable()) {
            throw usage("the embedded target is not available in this build; use jar:PATH or url:...");
        }
    }

    /** {@code --history FILE}, else {@code history.sqlite} in the {@code --results} directory. */
    public static Path historyPath(Path historyFile, Path results) {
        return historyFile != null ? historyFile : results.resolve("history.sqlite");
    }

    /**
     * Opens the history to record the run in. When it cannot be opened the run still measures and
     * reports, and says on {@code err} that it will not be recorded: null then (the caller's exit
     * code reports the lost record).
     */
    public HistoryStore openForRecording(Path historyPath, PrintWriter err) {
        try {
            return HistoryStore.open(historyPath);
        } catch (HistoryException e) {
            err.println(command + ": " + e.getMessage() + "; this run will not be recorded");
            return null;
        }
    }

    /** Writes one benchmark's report files. */
    @FunctionalInterface
    public interface ReportWriter {
        ReportFiles.Written write() throws IOException;
    }

    /**
     * Writes the report files and prints where they went ({@code "reports: HTML, JSON, JUNIT"} then
     * {@code recorded}, e.g. where the history is).
     *
     * @return false, with the error on {@code err}, when writing failed
     */
    public boolean writeReports(ReportWriter writer, Path results, String recorded, PrintWriter out,
            PrintWriter err) {
        try {
            ReportFiles.Written w = writer.write();
            out.println("reports: " + w.html() + ", " + w.json() + ", " + w.junit() + recorded);
            return true;
        } catch (IOException | RuntimeException e) {
            err.println(command + ": writing the reports to " + results + " failed: " + e);
            return false;
        }
    }
}
