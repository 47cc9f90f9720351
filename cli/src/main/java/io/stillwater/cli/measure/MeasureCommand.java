package io.stillwater.cli.measure;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure}: what cannot be a benchmark scenario, because it measures the
 * benchmark harness itself ({@code measure harness}: the LoadDriver's schedule lateness, and its
 * closed loop against pgbench), or a figure that is not a latency ({@code measure memory}: bytes per
 * row against PostgreSQL). The engine's own figures are bench scenarios, with versions,
 * thresholds, history and reports; the footer says where each former subcommand went.
 */
@Command(name = "measure",
        mixinStandardHelpOptions = true,
        description = "Measure the bench harness itself, memory per row against PostgreSQL, or storage (disk and restart time over a write history), and print the figures (not a test: no speed assertions).",
        subcommands = {HarnessMeasureCommand.class, MemoryMeasureCommand.class, StorageMeasureCommand.class},
        // picocli wraps help at 80 columns: every line here stays shorter
        footer = {"",
                "The engine's figures are benchmark scenarios now (docs/bench.md):",
                "  measure views (a) lookups    feature-bench --scenario FastPathFilterIndex",
                "                               feature-bench --scenario FastPathFilterNoIndex",
                "                               bench --scenario PointLookupThroughput",
                "  measure views (b, c)         bench --scenario JoinGroupByIngest",
                "  measure views (d) hydration  feature-bench --scenario CreateIndex",
                "                               feature-bench --scenario HydrateIndex",
                "  measure runtimes             bench (interactive suite, other = runtime off):",
                "                               PeekIsolationUnderExpensivePeeks,",
                "                               FreshnessUnderPeekWalks,",
                "                               IntrospectionUnderHydration",
                "  measure ingest               bench --scenario IngestOverload",
                "                                 --other-params max_maintenance_lag=0"})
public final class MeasureCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing measurement: choose one of " + String.join(", ", spec.subcommands().keySet())
                        + " (the engine's figures are bench scenarios: see stillwater measure --help)");
    }
}
