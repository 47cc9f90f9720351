package io.stillwater.bench.cli;

/**
 * Receives a finished bench run: writes reports (terminal table, JSON, JUnit XML, HTML) and
 * stores it in the history. Implementations are found with {@link java.util.ServiceLoader} (list
 * them in {@code META-INF/services/io.stillwater.bench.cli.BenchReporter}) and run in class-path
 * order after the built-in {@link TerminalSummary}. A reporter that throws makes the command exit
 * non-zero (results that were not written are a failure), after the others have run.
 */
public interface BenchReporter {
    /** A short name for error messages, e.g. "html". */
    String name();

    void report(BenchRun run) throws Exception;
}
