package io.stillwater.cli.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.action.WrongResultException;
import io.stillwater.bench.arrival.Arrival;
import io.stillwater.bench.load.BoundLoop;
import io.stillwater.bench.load.Invoker;
import io.stillwater.bench.load.LoadDriver;
import io.stillwater.bench.load.LoadPhaseReport;
import io.stillwater.bench.load.Loop;
import io.stillwater.bench.load.LoopReport;
import io.stillwater.bench.runner.Target;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.LatencyRecorder;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import io.stillwater.targets.ThrowawayPostgres;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure harness}: the bench harness's own figures (issue 6), measured with the
 * harness's real classes ({@link LoadDriver}, {@link Arrival.Periodic}, {@link LatencyRecorder}):
 *
 * <ol>
 *   <li>open-loop schedule lateness: a periodic arrival at {@code --rate} queries/s issuing
 *       {@code SELECT 1} on a pool of {@code --connections} connections against the target (the
 *       embedded engine, a URL, or with {@code --postgres} a throwaway PostgreSQL); lateness comes
 *       from the driver's {@link LoopReport}, query latency from the recorder;</li>
 *   <li>closed-loop point-lookup throughput on a throwaway PostgreSQL with a {@code --rows}-row
 *       table keyed by a primary key: the harness's closed loop ({@code --connections} workers, each
 *       on its own connection and platform thread, a server-side prepared lookup of a random key;
 *       once more with the workers on virtual threads, the driver's former default) against a plain JDBC
 *       loop on platform threads (the same lookups without the harness: separates the harness's
 *       cost from pgjdbc's) and {@code pgbench -M prepared} with the same connections, duration and
 *       query; {@code --rounds} rounds interleave the three so load drift on the machine hits all.</li>
 * </ol>
 *
 * Prints figures only. A part that fails prints its error and the other still runs; the exit
 * code is 1 then. PostgreSQL binaries that are missing are reported with what to install.
 */
@Command(name = "harness",
        mixinStandardHelpOptions = true,
        description = {
                "Measure the bench harness itself: open-loop schedule lateness of a periodic SELECT 1 arrival, and",
                "closed-loop point-lookup qps of the harness against pgbench on a throwaway PostgreSQL 15 with the",
                "same connections. Prints figures only."})
final class HarnessMeasureCommand implements Callable<Integer> {
    /** Which parts to run. */
    enum Parts { BOTH, OPEN, CLOSED }

    static final String LOOKUP_TABLE = "harness_lookup";
    static final String LOOKUP_JDBC = "SELECT v FROM " + LOOKUP_TABLE + " WHERE id = ?";

    @Option(names = "--part", defaultValue = "both", converter = PartsConverter.class,
            description = "Parts to run: both, open (lateness), closed (qps vs pgbench) (default: ${DEFAULT-VALUE}).")
    Parts part;

    @Option(names = "--seconds", defaultValue = "10", description = "Measured seconds per run (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup-seconds", defaultValue = "1",
            description = "Unrecorded warm-up of the harness before each measured run (default: ${DEFAULT-VALUE}).")
    double warmupSeconds;

    @Option(names = "--rate", defaultValue = "2000", description = "Open-loop arrivals per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--connections", defaultValue = "4",
            description = "Connections: the open loop's pool, the closed loop's workers and pgbench's clients (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--rounds", defaultValue = "2",
            description = "Closed-loop rounds; each runs the harness, a plain JDBC loop and pgbench in turn (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--rows", defaultValue = "100000", description = "Rows of the point-lookup table (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--target", defaultValue = "embedded",
            description = "Open-loop target: embedded or url:postgresql://USER@HOST[:PORT]/DB (default: ${DEFAULT-VALUE}).")
    String target;

    @Option(names = "--postgres", description = "Run the open loop against a throwaway PostgreSQL 15 instead of --target.")
    boolean postgres;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    static final class PartsConverter implements picocli.CommandLine.ITypeConverter<Parts> {
        @Override
        public Parts convert(String value) {
            return Parts.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!(seconds > 0) || !(rate > 0) || connections < 1 || rows < 1 || rounds < 1 || !(warmupSeconds >= 0)) {
            err.println("stillwater measure harness: --seconds, --rate, --connections, --rows and --rounds must be positive");
            return 2;
        }
        if (postgres && !"embedded".equals(target)) {
            err.println("stillwater measure harness: --postgres and --target are alternatives; give one");
            return 2;
        }
        TargetSpec spec;
        try {
            spec = TargetSpec.parse(target);
        } catch (IllegalArgumentException e) {
            err.println("stillwater measure harness: --target: " + e.getMessage());
            return 2;
        }
        if (spec instanceof TargetSpec.Jar) {
            err.println("stillwater measure harness: --target: use embedded or url:postgresql://...");
            return 2;
        }
        out.printf(Locale.ROOT, "stillwater measure harness: %d CPUs, load average %.2f at start, Java %s%n",
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.version());
        int status = 0;
        if (part != Parts.CLOSED) {
            try {
                openLoop(spec);
            } catch (Exception e) {
                status = 1;
                out.println();
                out.println("open loop FAILED: " + describe(e));
            }
        }
        if (part != Parts.OPEN) {
            try {
                closedLoop();
            } catch (ThrowawayPostgres.MissingPostgresException e) {
                status = 1;
                out.println();
                out.println("closed loop not run: " + e.getMessage());
            } catch (Exception e) {
                status = 1;
                out.println();
                out.println("closed loop FAILED: " + describe(e));
            }
        }
        out.printf(Locale.ROOT, "%nload average %.2f at the end%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.flush();
        return status;
    }

    // ---- part 1: open-loop schedule lateness

    private void openLoop(TargetSpec spec) throws Exception {
        ThrowawayPostgres pg = null;
        TargetLauncher.LaunchedTarget launched = null;
        try {
            Target t;
            String label;
            if (postgres) {
                pg = ThrowawayPostgres.start();
                t = Target.of(pg.jdbcUrl() + "?prepareThreshold=1", pg.user(), Set.of());
                label = "PostgreSQL (throwaway, port " + pg.port() + ")";
            } else {
                launched = Targets.launcher(spec, SideParams.NONE).launch();
                t = launched;
                label = spec.display();
            }
            Action action = new Action.PooledQuery("SELECT 1");
            try (SelectOnePool pool = SelectOnePool.open(t, connections)) {
                if (warmupSeconds > 0) {
                    runOpen(pool, action, Duration.ofMillis(Math.round(warmupSeconds * 1000)));
                }
                OpenRun run = runOpen(pool, action, Duration.ofMillis(Math.round(seconds * 1000)));
                ActionStatistics s = run.stats();
                LoopReport loop = run.loop();
                new Report(String.format(Locale.ROOT, "1. Open-loop schedule lateness: SELECT 1, periodic %s/s for %s s, pool of %d",
                        Report.rate(rate), Report.seconds(seconds), connections),
                        "target", "issued", "achieved/s", "late p99 ms", "late max ms", "query p50 ms", "query p99 ms",
                        "failed")
                        .row(label, Report.count(loop.issued()), Report.rate(s.qps()),
                                fixed(loop.p99LatenessMillis()), fixed(loop.maxLatenessMillis()), fixed(s.p50()),
                                fixed(s.p99()), Report.count(s.errors()))
                        .note("lateness: how long after its scheduled time the dispatcher handed an event to a worker "
                                + "(LoadDriver's LoopReport, which carries p99 and max only, so no p50)")
                        .note("achieved/s: successful queries / phase wall time (start until the last query finished, "
                                + Report.seconds(run.wallSeconds()) + " s); query latency runs from the scheduled start")
                        .print(out);
                s.errorCounts().forEach((text, n) -> out.println("  failed " + n + "x: " + text));
            }
        } finally {
            if (launched != null) {
                launched.close();
            }
            if (pg != null) {
                pg.close();
            }
        }
    }

    private record OpenRun(LoopReport loop, ActionStatistics stats, double wallSeconds) {}

    private OpenRun runOpen(SelectOnePool pool, Action action, Duration duration) throws Exception {
        LatencyRecorder recorder = new LatencyRecorder(action.name());
        Loop.OpenLoop loop = new Loop.OpenLoop(action, new Arrival.Periodic(rate), true);
        // The driver closes the invokers it opened after the phase; the pool outlives the warm-up,
        // so each phase gets a view of it whose close() does nothing.
        BoundLoop bound = new BoundLoop(loop, () -> pool::execute, recorder);
        LoadPhaseReport r = new LoadDriver(SqlErrors::describe).run(duration, List.of(bound), System.nanoTime());
        return new OpenRun(r.loops().getFirst(), recorder.statistics(), r.wallSeconds());
    }

    // ---- part 2: closed-loop point lookups vs pgbench

    private void closedLoop() throws Exception {
        try (ThrowawayPostgres pg = ThrowawayPostgres.start()) {
            Path pgbench = pg.pgbench().orElseThrow(() -> new ThrowawayPostgres.MissingPostgresException(
                    "pgbench not found next to the server binaries or on the PATH: install postgresql-client-15"));
            Target t = Target.of(pg.jdbcUrl() + "?prepareThreshold=1", pg.user(), Set.of());
            String version;
            try (Connection c = t.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + LOOKUP_TABLE + " (id int PRIMARY KEY, v int NOT NULL)");
                s.execute("INSERT INTO " + LOOKUP_TABLE + " SELECT g, g * 2 FROM generate_series(1, " + rows + ") g");
                s.execute("VACUUM ANALYZE " + LOOKUP_TABLE);
                try (ResultSet rs = s.executeQuery("SHOW server_version")) {
                    rs.next();
                    version = rs.getString(1);
                }
            }
            Action action = new Action.ReuseConnQuery(LOOKUP_JDBC, List.of());
            Duration measured = Duration.ofMillis(Math.round(seconds * 1000));
            if (warmupSeconds > 0) {
                Duration warm = Duration.ofMillis(Math.round(warmupSeconds * 1000));
                runClosed(t, action, warm, LoadDriver.WorkerThreads.PLATFORM);
                runClosed(t, action, warm, LoadDriver.WorkerThreads.VIRTUAL);
                runPlainJdbc(t, warm, false);
                runPlainJdbc(t, warm, true);
            }
            int pgbenchSeconds = (int) Math.max(1, Math.round(seconds));
            List<String> command = List.of(pgbench.toString(), "-h", "127.0.0.1", "-p", Integer.toString(pg.port()),
                    "-U", "postgres", "-n", "-c", Integer.toString(connections), "-j", Integer.toString(connections),
                    "-T", Integer.toString(pgbenchSeconds), "-f", "lookup.sql", "-M", "prepared", "postgres");
            Report report = new Report(String.format(Locale.ROOT,
                    "2. Closed-loop point lookups: PostgreSQL %s (throwaway), %s rows with a primary key, %d connections",
                    version, Report.count(rows), connections),
                    "client", "round", "seconds", "queries", "failed", "qps", "p50 ms", "p99 ms");
            // Rounds interleave the clients (harness, plain, pgbench, harness, ...) so a drift in the
            // machine's load hits all three; the ratios use the totals over all rounds.
            // harness successes, wall; plain successes, wall; pgbench transactions, seconds; virtual successes, wall;
            // harness on virtual threads successes, wall
            double[] sums = new double[10];
            Map<String, Long> harnessErrors = new TreeMap<>();
            for (int round = 1; round <= rounds; round++) {
                String r = Integer.toString(round);
                ActionStatistics s = runClosed(t, action, measured, LoadDriver.WorkerThreads.PLATFORM).stats();
                report.row("harness closed loop", r, Report.seconds(s.wallSeconds()), Report.count(s.queries()),
                        Report.count(s.errors()), Report.rate(s.qps()), fixed(s.p50()), fixed(s.p99()));
                sums[0] += s.queries() - s.errors();
                sums[1] += s.wallSeconds();
                s.errorCounts().forEach((text, n) -> harnessErrors.merge(text, n, Long::sum));
                ActionStatistics sv = runClosed(t, action, measured, LoadDriver.WorkerThreads.VIRTUAL).stats();
                report.row("harness, virtual threads", r, Report.seconds(sv.wallSeconds()), Report.count(sv.queries()),
                        Report.count(sv.errors()), Report.rate(sv.qps()), fixed(sv.p50()), fixed(sv.p99()));
                sums[8] += sv.queries() - sv.errors();
                sums[9] += sv.wallSeconds();
                PlainRun virtual = runPlainJdbc(t, measured, true);
                report.row("plain JDBC, virtual threads", r, Report.seconds(virtual.wallSeconds()),
                        Report.count(virtual.queries()), Report.count(virtual.failed()),
                        Report.rate(virtual.successes() / virtual.wallSeconds()), "-", "-");
                sums[6] += virtual.successes();
                sums[7] += virtual.wallSeconds();
                PlainRun plain = runPlainJdbc(t, measured, false);
                report.row("plain JDBC, platform threads", r, Report.seconds(plain.wallSeconds()), Report.count(plain.queries()),
                        Report.count(plain.failed()), Report.rate(plain.successes() / plain.wallSeconds()), "-", "-");
                sums[2] += plain.successes();
                sums[3] += plain.wallSeconds();
                PgbenchResult bench = runPgbench(command);
                report.row("pgbench -M prepared", r, Integer.toString(pgbenchSeconds), Report.count(bench.transactions()),
                        Report.count(bench.failed()), Report.rate(bench.tps()), "-", "-");
                sums[4] += bench.tps() * pgbenchSeconds;
                sums[5] += pgbenchSeconds;
            }
            double harnessQps = sums[0] / sums[1];
            double plainQps = sums[2] / sums[3];
            double pgbenchTps = sums[4] / sums[5];
            double virtualQps = sums[6] / sums[7];
            double harnessVirtualQps = sums[8] / sums[9];
            report.note(String.format(Locale.ROOT, "over %d round(s): harness %s qps, pgbench %s tps: harness / pgbench = %.2f",
                            rounds, Report.rate(harnessQps), Report.rate(pgbenchTps), ratio(harnessQps, pgbenchTps)))
                    .note(String.format(Locale.ROOT, "  harness on virtual threads / pgbench = %.2f (the driver's former default)",
                            ratio(harnessVirtualQps, pgbenchTps)))
                    .note(String.format(Locale.ROOT, "  plain JDBC (platform) / pgbench = %.2f: pgjdbc's cost", ratio(plainQps, pgbenchTps)))
                    .note(String.format(Locale.ROOT, "  plain JDBC (virtual) / plain JDBC (platform) = %.2f: blocking pgjdbc on virtual threads",
                            ratio(virtualQps, plainQps)))
                    .note(String.format(Locale.ROOT, "  harness / plain JDBC (platform) = %.2f: the LoadDriver's timing and recording",
                            ratio(harnessQps, plainQps)))
                    .note("plain JDBC: the same invokers on " + connections + " threads that only count (no LoadDriver, "
                            + "no recording); the LoadDriver runs each closed-loop worker on a platform thread "
                            + "(\"harness, virtual threads\": on a virtual thread)")
                    .note("query: " + LOOKUP_JDBC + " with a uniformly random id in [1, " + rows
                            + "], server-side prepared, one connection per worker, connections opened outside timing")
                    .note("pgbench: " + String.join(" ", command.subList(1, command.size())).replace("lookup.sql",
                            "lookup.sql (\\set id random(1, " + rows + "); SELECT v FROM " + LOOKUP_TABLE
                            + " WHERE id = :id;)") + "; tps without initial connection time")
                    .print(out);
            harnessErrors.forEach((text, n) -> out.println("  harness failed " + n + "x: " + text));
        }
    }

    private record ClosedRun(LoopReport loop, ActionStatistics stats) {}

    private ClosedRun runClosed(Target t, Action action, Duration duration, LoadDriver.WorkerThreads threads)
            throws Exception {
        LatencyRecorder recorder = new LatencyRecorder(action.name());
        Loop.ClosedLoop loop = new Loop.ClosedLoop(action, connections, true);
        AtomicLong seeds = new AtomicLong(1);
        BoundLoop bound = new BoundLoop(loop, () -> new LookupInvoker(t, rows, seeds.getAndIncrement()), recorder);
        LoadPhaseReport r = new LoadDriver(SqlErrors::describe, threads).run(duration, List.of(bound), System.nanoTime());
        return new ClosedRun(r.loops().getFirst(), recorder.statistics());
    }

    /** What the plain JDBC loop did; {@code wallSeconds} runs until its last query finished. */
    private record PlainRun(long queries, long successes, long failed, double wallSeconds) {}

    /**
     * The baselines of the closed loop: the same lookups on {@code --connections} platform (or
     * virtual) threads that only count, so the harness's own cost separates from the driver's,
     * and the cost of running blocking pgjdbc calls on virtual threads separates from the cost
     * of timing and recording.
     */
    private PlainRun runPlainJdbc(Target t, Duration duration, boolean virtual) throws Exception {
        List<LookupInvoker> invokers = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                invokers.add(new LookupInvoker(t, rows, 1000 + i));
            }
            AtomicLong ok = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            for (LookupInvoker inv : invokers) {
                threads.add((virtual ? Thread.ofVirtual() : Thread.ofPlatform()).name("plain-jdbc").start(() -> {
                    long good = 0;
                    long bad = 0;
                    while (System.nanoTime() < end) {
                        try {
                            inv.invoke();
                            good++;
                        } catch (Exception e) {
                            bad++;
                        }
                    }
                    ok.addAndGet(good);
                    failed.addAndGet(bad);
                }));
            }
            for (Thread th : threads) {
                th.join();
            }
            double wall = (System.nanoTime() - start) / 1e9;
            return new PlainRun(ok.get() + failed.get(), ok.get(), failed.get(), wall);
        } finally {
            for (LookupInvoker inv : invokers) {
                inv.close();
            }
        }
    }

    /** Runs pgbench in a temporary directory holding its script; its summary or an error with its output. */
    private PgbenchResult runPgbench(List<String> command) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("stillwater-measure-pgbench");
        try {
            Files.writeString(dir.resolve("lookup.sql"), "\\set id random(1, " + rows + ")\n"
                    + "SELECT v FROM " + LOOKUP_TABLE + " WHERE id = :id;\n", StandardCharsets.UTF_8);
            Path log = dir.resolve("pgbench.log");
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            long limit = Math.round(seconds) + 120;
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("pgbench did not finish within " + limit + " s");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException("pgbench failed (exit " + p.exitValue() + "):\n" + output.strip());
            }
            return PgbenchResult.parse(output);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * One closed-loop worker's connection and prepared lookup; used by that worker's
     * thread only. A wrong answer counts as a failed query.
     */
    private static final class LookupInvoker implements Invoker {
        private final Connection connection;
        private final PreparedStatement lookup;
        private final SplittableRandom random;
        private final int rows;

        LookupInvoker(Target t, int rows, long seed) throws SQLException {
            this.connection = t.connect();
            try {
                this.lookup = connection.prepareStatement(LOOKUP_JDBC);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            this.random = new SplittableRandom(seed);
            this.rows = rows;
        }

        @Override
        public void invoke() throws Exception {
            int id = random.nextInt(1, rows + 1);
            lookup.setInt(1, id);
            try (ResultSet rs = lookup.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != 2 * id) {
                    throw new WrongResultException("lookup of id " + id + " did not return v = " + 2 * id);
                }
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }

    /** {@code a / b}, NaN when {@code b} is not positive. */
    static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    private static String fixed(double millis) {
        return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.3f", millis);
    }

    private static String describe(Throwable e) {
        String d = SqlErrors.describe(e);
        return e instanceof IOException ? e.getMessage() : d;
    }
}
