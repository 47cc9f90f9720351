package io.stillwater.cli;

import io.stillwater.bench.cli.BenchCommand;
import io.stillwater.bench.feature.cli.FeatureBenchCommand;
import io.stillwater.cli.measure.MeasureCommand;
import io.stillwater.slt.SltCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code stillwater} command. Subcommands do the work; this class only wires them
 * into picocli and maps the outcome to an exit code.
 */
@Command(name = "stillwater",
        mixinStandardHelpOptions = true,
        versionProvider = StillwaterCli.Version.class,
        description = "Stillwater: a streaming SQL engine that speaks the PostgreSQL wire protocol.",
        subcommands = {ServeCommand.class, SltCommand.class, BenchCommand.class,
                FeatureBenchCommand.class,
                MeasureCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Run 'stillwater <command> --help' for a command's options."})
public final class StillwaterCli implements Runnable {
    public static final String VERSION = "0.1.0";

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for main and for tests. */
    public static CommandLine commandLine() {
        return new CommandLine(new StillwaterCli());
    }

    /** Without a subcommand there is nothing to do: show what there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: choose one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList()));
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"stillwater " + VERSION + " (PostgreSQL protocol 3.0, Java " + Runtime.version() + ")"};
        }
    }
}
