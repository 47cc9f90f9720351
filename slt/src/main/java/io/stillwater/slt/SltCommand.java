package io.stillwater.slt;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stillwater slt}: runs sqllogictest scripts. The cli module registers this class as a
 * subcommand; it can also run standalone through {@link #main}. Exit status: 0 when every file
 * passed, 1 when any record failed, 2 for usage errors or when no target is available.
 */
@Command(
        name = "slt",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs sqllogictest scripts (the SQLite format plus Materialize's extensions) through JDBC.",
            "",
            "By default every file runs against a fresh embedded Stillwater engine. With --url, files run",
            "against an existing PostgreSQL-compatible server, each in a fresh database of its own.",
            "Prints a progress line per file with its outcome counts, the first failures (file:line,",
            "expected, actual) and totals. Records the target rejects with SQLSTATE 0A000 are counted",
            "as 'unsupported' and reported, not passed."
        },
        footer = {
            "",
            "Examples:",
            "  stillwater slt test/slt",
            "  stillwater slt --url postgresql://postgres@localhost:5432/postgres ../shared/corpus/sqlite",
            "  stillwater slt --shard 2/4 --junit target/slt.xml test/slt",
            "  stillwater slt --rewrite-results test/slt/joins.slt",
            "",
            "Exit status: 0 all passed, 1 failures, 2 usage error or no target."
        })
public final class SltCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "PATH",
            description = "Script files, or directories searched recursively for *.slt and *.test files.")
    List<Path> paths;

    @Option(names = "--url", paramLabel = "URL",
            description = "Run against an existing server: postgresql://user[:password]@host:port/db or a "
                    + "jdbc:postgresql:// URL. Default: a fresh embedded engine per file.")
    String url;

    @Option(names = "--engine-name", paramLabel = "NAME", defaultValue = "postgresql",
            description = "Engine name that skipif/onlyif lines are compared with (default: ${DEFAULT-VALUE}).")
    String engineName;

    @Option(names = "--fail-fast", description = "Stop at the first failing record.")
    boolean failFast;

    @Option(names = "--rewrite-results",
            description = "Rewrite the expected results of failing queries and simple blocks in place with the actual results.")
    boolean rewriteResults;

    @Option(names = {"-v", "--verbose"}, description = "Print every non-successful record, including unsupported ones.")
    boolean verbose;

    @Option(names = "--shard", paramLabel = "i/n", defaultValue = "1/1",
            description = "Run only shard i of n (1-based): every n-th file of the sorted list, starting with the i-th.")
    String shard;

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write a JUnit XML report to FILE.")
    Path junit;

    @Option(names = "--unsupported-is-failure",
            description = "Count unsupported records (SQLSTATE 0A000, reset-server on --url) as failures.")
    boolean unsupportedIsFailure;

    @Option(names = "--max-failures", paramLabel = "N", defaultValue = "10",
            description = "Failures printed per file (default: ${DEFAULT-VALUE}; --verbose prints all).")
    int maxFailures;

    @Option(names = "--statement-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "Cancel a statement after this many seconds; 0 disables (default: ${DEFAULT-VALUE}).")
    int statementTimeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private PrintStream out = System.out;

    /** Sets where reports go (default System.out). */
    public SltCommand output(PrintStream stream) {
        this.out = stream;
        return this;
    }

    @Override
    public Integer call() {
        int[] s = parseShard(shard);
        SltOptions options;
        try {
            options = new SltOptions(paths, url, engineName, failFast, rewriteResults, verbose, s[0], s[1], junit,
                    unsupportedIsFailure, maxFailures, Duration.ofSeconds(Math.max(0, statementTimeout)));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            return new SltRunner(options, out).run().exitCode();
        } catch (SltRunner.SetupException e) {
            spec.commandLine().getErr().println("slt: " + e.getMessage());
            return 2;
        }
    }

    private int[] parseShard(String text) {
        String[] parts = text.split("/");
        try {
            if (parts.length == 2) {
                int i = Integer.parseInt(parts[0].strip());
                int n = Integer.parseInt(parts[1].strip());
                if (n >= 1 && i >= 1 && i <= n) {
                    return new int[] {i, n};
                }
            }
        } catch (NumberFormatException ignored) {
            // fall through to the usage error
        }
        throw new CommandLine.ParameterException(spec.commandLine(),
                "--shard must be i/n with 1 <= i <= n, e.g. 2/4; got '" + text + "'");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SltCommand()).execute(args));
    }
}
