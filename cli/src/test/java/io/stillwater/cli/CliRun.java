package io.stillwater.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the {@code stillwater} command: its exit code and what it printed. */
public record CliRun(int exitCode, String out, String err) {
    /** Runs {@code stillwater args...} with its output captured. */
    public static CliRun of(String... args) {
        CommandLine cli = StillwaterCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
