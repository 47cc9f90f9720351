package io.stillwater.slt;

import java.util.Map;
import io.stillwater.targets.EmbeddedServerFactory;
import io.stillwater.targets.PgUrl;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs sqllogictest scripts and reports outcome counts. The public entry point for the
 * {@code slt} command and for tests:
 *
 * <pre>{@code
 * RunSummary s = new SltRunner(SltOptions.of(List.of(path)).withUrl("postgresql://postgres@localhost:5432/postgres"),
 *         System.out).run();
 * }</pre>
 *
 * Files run one after another on the calling thread, each against its own target (a fresh
 * embedded engine, or a fresh database on the {@code --url} server). A progress line is printed
 * per file, then its first failures, then the totals.
 */
public final class SltRunner {
    private final SltOptions options;
    private final PrintStream out;
    private final Optional<EmbeddedServerFactory> embedded;

    public SltRunner(SltOptions options, PrintStream out) {
        this(options, out, options.embedded() ? EmbeddedServerFactory.discover() : Optional.empty());
    }

    /** With an explicit embedded factory instead of the one ServiceLoader finds. */
    public SltRunner(SltOptions options, PrintStream out, Optional<EmbeddedServerFactory> embedded) {
        this.options = options;
        this.out = out;
        this.embedded = embedded;
    }

    /** Thrown when the run cannot start at all: no target, or no script files. */
    public static final class SetupException extends RuntimeException {
        public SetupException(String message) {
            super(message);
        }
    }

    /**
     * Runs every selected file. Failures inside files are counted, never thrown.
     *
     * @throws SetupException when there is no usable target or the paths name no scripts
     */
    public RunSummary run() {
        long start = System.nanoTime();
        List<Path> files = selectFiles();
        List<FileResult> results = new ArrayList<>();
        try (TargetProvider provider = provider()) {
            out.println("slt: " + files.size() + " file(s) against " + provider.describe() + ", engine name "
                    + options.engineName()
                    + (options.shardCount() > 1 ? ", shard " + options.shardIndex() + "/" + options.shardCount() : ""));
            for (Path file : files) {
                FileOutcome fo = runFile(provider, file);
                results.add(fo.result());
                report(fo.result());
                if (!fo.note().isEmpty()) {
                    out.println("    " + fo.note());
                }
                if (options.failFast() && fo.stop()) {
                    out.println("slt: stopping at the first failure (--fail-fast)");
                    break;
                }
            }
        }
        RunSummary summary = new RunSummary(results, Duration.ofNanos(System.nanoTime() - start),
                options.unsupportedIsFailure());
        printTotals(summary);
        if (options.junit() != null) {
            try {
                JUnitReport.write(summary, options.junit());
                out.println("slt: JUnit report written to " + options.junit());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the JUnit report " + options.junit(), e);
            }
        }
        return summary;
    }

    /** A file's result, whether --fail-fast should stop the run, and a note to print after it. */
    private record FileOutcome(FileResult result, boolean stop, String note) {
        FileOutcome(FileResult result, boolean stop) {
            this(result, stop, "");
        }
    }

    private FileOutcome runFile(TargetProvider provider, Path file) {
        long start = System.nanoTime();
        String name = file.toString();
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new FileOutcome(fatal(name, start, "cannot read the file: " + e), true);
        }
        Script script = SltParser.parse(name, content);
        Target target;
        try {
            target = provider.open(name);
        } catch (SQLException e) {
            return new FileOutcome(fatal(name, start, "cannot open the target: " + SqlError.of(e).summary()), true);
        }
        FileRunner runner = new FileRunner(script, target, options);
        FileResult result;
        try (target) {
            result = runner.run(Duration.ZERO, start);
        }
        String note = "";
        if (options.rewriteResults() && !runner.rewriter().isEmpty()) {
            try {
                runner.rewriter().write(file);
                note = "rewrote expected results in " + file;
            } catch (IOException e) {
                note = "could not rewrite " + file + ": " + e.getMessage();
            }
        }
        return new FileOutcome(result, runner.stoppedOnFailure() || result.failed(options.unsupportedIsFailure()), note);
    }

    private static FileResult fatal(String name, long start, String message) {
        return new FileResult(name, Map.of(), List.of(), Duration.ofNanos(System.nanoTime() - start), "",
                message);
    }

    private TargetProvider provider() {
        if (!options.embedded()) {
            PgUrl url;
            try {
                url = PgUrl.parse(options.url());
            } catch (IllegalArgumentException e) {
                throw new SetupException(e.getMessage());
            }
            return new UrlTargetProvider(url, out);
        }
        return new EmbeddedTargetProvider(embedded.orElseThrow(() -> new SetupException(
                "no embedded Stillwater engine is available: no io.stillwater.targets.EmbeddedServerFactory "
                        + "is registered on the class path (the pgwire module, inside the stillwater CLI, provides one). "
                        + "Run against an existing server with --url postgresql://user@host:port/db")));
    }

    /** All script files under the paths, sorted, then this shard's share. */
    List<Path> selectFiles() {
        List<Path> all = new ArrayList<>();
        for (Path p : options.paths()) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(Files::isRegularFile).filter(SltRunner::isScript).sorted().forEach(all::add);
                } catch (IOException e) {
                    throw new SetupException("cannot list " + p + ": " + e.getMessage());
                }
            } else if (Files.isRegularFile(p)) {
                all.add(p);
            } else {
                throw new SetupException("no such file or directory: " + p);
            }
        }
        if (all.isEmpty()) {
            throw new SetupException("no .slt or .test files under " + options.paths());
        }
        List<Path> mine = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i % options.shardCount() == options.shardIndex() - 1) {
                mine.add(all.get(i));
            }
        }
        return mine;
    }

    private static boolean isScript(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".slt") || n.endsWith(".test");
    }

    private void report(FileResult r) {
        boolean failed = r.failed(options.unsupportedIsFailure());
        String status = !r.fatal().isEmpty() ? "ERROR" : failed ? "FAIL" : "PASS";
        out.printf(Locale.ROOT, "==> %s %s %s (%.1fs)%s%n", r.file(), status, r.countsLine(),
                r.elapsed().toMillis() / 1000.0, r.halted().isEmpty() ? "" : " halted at " + r.halted());
        if (!r.fatal().isEmpty()) {
            out.println("    " + r.fatal());
        }
        int shown = 0;
        int limit = options.verbose() ? Integer.MAX_VALUE : options.maxFailuresShown();
        for (Failure f : r.problems()) {
            boolean isFailure = f.outcome().isFailure(options.unsupportedIsFailure());
            if (!isFailure && !options.verbose()) {
                continue;
            }
            if (shown++ >= limit) {
                break;
            }
            out.println(indent(f.describe()));
        }
        int hidden = (int) r.problems().stream()
                .filter(f -> options.verbose() || f.outcome().isFailure(options.unsupportedIsFailure())).count() - shown;
        if (hidden > 0) {
            out.println("    ... " + hidden + " more (--verbose shows all)");
        }
        int unsupported = r.count(Outcome.UNSUPPORTED);
        if (unsupported > 0 && !options.verbose()) {
            out.println("    " + unsupported + " unsupported record(s), e.g. "
                    + r.problems().stream().filter(f -> f.outcome() == Outcome.UNSUPPORTED).findFirst()
                            .map(f -> f.location() + ": " + f.reason()).orElse(""));
        }
    }

    private void printTotals(RunSummary s) {
        out.printf(Locale.ROOT, "slt: %s: %d file(s), %d failed; %s (%.1fs)%n", s.passed() ? "PASS" : "FAIL",
                s.files().size(), s.failedFiles(), s.countsLine(), s.elapsed().toMillis() / 1000.0);
        int unsupported = s.total(Outcome.UNSUPPORTED);
        if (unsupported > 0) {
            out.println("slt: " + unsupported + " record(s) unsupported by the target"
                    + (options.unsupportedIsFailure() ? " (counted as failures: --unsupported-is-failure)"
                            : " (not counted as failures; --unsupported-is-failure makes them fail)"));
        }
    }

    private static String indent(String s) {
        return "    " + s.replace("\n", "\n    ");
    }
}
