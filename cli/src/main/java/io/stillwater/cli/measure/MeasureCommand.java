package io.stillwater.cli.measure;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure}: measurement programs that print figures (never pass/fail
 * verdicts about speed). Each subcommand measures one area.
 */
@Command(name = "measure",
        mixinStandardHelpOptions = true,
        description = "Measure the engine and print the figures (not a test: no speed assertions).",
        subcommands = {ViewsMeasureCommand.class, RuntimesMeasureCommand.class, HarnessMeasureCommand.class,
                IngestMeasureCommand.class})
public final class MeasureCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing measurement: choose one of " + String.join(", ", spec.subcommands().keySet()));
    }
}
