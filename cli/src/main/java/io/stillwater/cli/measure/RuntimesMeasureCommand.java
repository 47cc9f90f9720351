package io.stillwater.cli.measure;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure runtimes}: the figures of issue 5 for a replica with one solo
 * runtime and for one with a maintenance + an interactive runtime. Each layout runs on a
 * fresh embedded engine + wire server whose startup default of
 * {@code enable_compute_interactive_runtime} decides the layout, in a cluster {@code
 * measure} of {@code --workers} workers, reached through pgjdbc:
 *
 * <ol type="a">
 *   <li>point-lookup latency (closed loop, one connection) while a {@code --rows}-row index
 *       is walked {@code --walks-per-second} times a second on another connection;</li>
 *   <li>strict serializable read latency of a maintained count (an indexed view {@code
 *       SELECT count(*)} over a table written {@code --ticks-per-second} times a second)
 *       while the same walks run; a read that misses an acknowledged write is counted;</li>
 *   <li>introspection read latency ({@code mz_introspection.mz_dataflow_arrangement_sizes})
 *       while an index on the large table is created, read through (hydrated) and dropped
 *       in a loop.</li>
 * </ol>
 *
 * Prints figures only (nothing asserts a speed). A layout that fails prints its error and
 * the other still runs; the exit code is 1 then.
 */
@Command(name = "runtimes",
        mixinStandardHelpOptions = true,
        description = {
                "Measure reads on a solo replica and on a two-runtime (maintenance + interactive) replica: point lookups",
                "while a large index is walked, strict serializable reads of a maintained count while walks run, and",
                "introspection reads while indexes are created and dropped. Each layout runs on a fresh embedded engine",
                "with enable_compute_interactive_runtime as its startup default. Prints figures only."})
final class RuntimesMeasureCommand implements Callable<Integer> {
    /** Which layouts to measure. */
    enum Modes { BOTH, SOLO, INTERACTIVE }

    /** A replica's runtime layout and how it is selected. */
    enum Layout {
        TWO_RUNTIMES("maintenance + interactive", "true"),
        SOLO("solo", "false");

        final String label;
        final String flag;

        Layout(String label, String flag) {
            this.label = label;
            this.flag = flag;
        }
    }

    static final String LOOKUP = "SELECT payload AS measure_lookup FROM big WHERE id = ?";
    static final String CLUSTER = "measure";

    @Option(names = "--mode", defaultValue = "both", converter = ModesConverter.class,
            description = "Layouts to measure: both, solo, interactive (default: ${DEFAULT-VALUE}).")
    Modes mode;

    @Option(names = "--workers", defaultValue = "2", description = "Workers of the measured replica (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--rows", defaultValue = "500000", description = "Rows of the walked index (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--walks-per-second", defaultValue = "3", description = "Full walks per second (default: ${DEFAULT-VALUE}).")
    double walksPerSecond;

    @Option(names = "--ticks-per-second", defaultValue = "10",
            description = "Writes per second into the table under the maintained count (default: ${DEFAULT-VALUE}).")
    double ticksPerSecond;

    @Option(names = "--seconds", defaultValue = "10", description = "Measured seconds per part (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup-seconds", defaultValue = "2", description = "Unrecorded warm-up before each part (default: ${DEFAULT-VALUE}).")
    double warmupSeconds;

    @Option(names = "--no-fsync", description = "Do not fsync the write-ahead log (cheaper writes; not durable).")
    boolean noFsync;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    static final class ModesConverter implements picocli.CommandLine.ITypeConverter<Modes> {
        @Override
        public Modes convert(String value) {
            return Modes.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One latency series plus what the run around it did.
     *
     * @param wrong  reads that returned a wrong answer
     * @param failed reads that failed (not timed); {@code error} holds the first failure
     */
    record Series(LatencySummary latency, long wrong, long failed, Optional<String> error) {}

    /** A read loop gives up after this many failed reads. */
    private static final long MAX_FAILED_READS = 100;

    /** Everything measured on one layout. */
    record Figures(Layout layout, String cluster, Series lookups, PacedWalker.Result lookupWalks, String lookupsServedBy,
                   Series strictReads, PacedWalker.Result strictWalks, long ticks,
                   Series introspection, long churnCycles, double churnSeconds) {}

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        if (workers < 1 || rows < 1 || walksPerSecond <= 0 || ticksPerSecond <= 0 || seconds <= 0 || warmupSeconds < 0) {
            spec.commandLine().getErr().println("stillwater measure runtimes: --workers, --rows, --walks-per-second, "
                    + "--ticks-per-second and --seconds must be positive");
            return 2;
        }
        List<Layout> layouts = switch (mode) {
            case BOTH -> List.of(Layout.SOLO, Layout.TWO_RUNTIMES);
            case SOLO -> List.of(Layout.SOLO);
            case INTERACTIVE -> List.of(Layout.TWO_RUNTIMES);
        };
        out.printf(Locale.ROOT, "stillwater measure runtimes: mode=%s workers=%d rows=%s walks/s=%s fsync=%s, %d CPUs, Java %s%n",
                mode.name().toLowerCase(Locale.ROOT), workers, Report.count(rows), Report.rate(walksPerSecond), !noFsync,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        List<Figures> figures = new ArrayList<>();
        boolean ok = true;
        for (Layout layout : layouts) {
            out.printf("%n== %s replica (enable_compute_interactive_runtime=%s) ...%n", layout.label, layout.flag);
            out.flush();
            try (MeasuredServer server = MeasuredServer.start(workers, !noFsync,
                    Map.of("enable_compute_interactive_runtime", layout.flag))) {
                figures.add(measure(layout, server));
            } catch (Exception e) {
                ok = false;
                out.printf("%s FAILED: %s%n", layout.label, e);
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) out.printf("  caused by: %s%n", c);
            }
        }
        print(figures);
        return ok ? 0 : 1;
    }

    private Figures measure(Layout layout, MeasuredServer server) throws Exception {
        String cluster = createCluster(server);
        PacedWalker.Sessions sessions = () -> {
            Connection c = server.connect();
            if (cluster.equals(CLUSTER)) Sql.exec(c, "SET cluster = " + CLUSTER);
            return c;
        };
        String walk = "SELECT id FROM big WHERE payload = '" + Sql.payload(rows) + "'";
        try (Connection c = sessions.open()) {
            Sql.exec(c, "CREATE TABLE big (id bigint, payload text)");
            Sql.fill(c, "big", rows, 100_000);
            Sql.exec(c, "CREATE INDEX big_id ON big (id)",
                    "CREATE TABLE ticks (id bigint)",
                    "CREATE VIEW tick_count AS SELECT count(*) AS n FROM ticks",
                    "CREATE DEFAULT INDEX ON tick_count");
            // Strict serializable reads: return once both indexes have hydrated.
            long n = scalarRetrying(c, "SELECT count(*) FROM big");
            if (n != rows) throw new IllegalStateException("big has " + n + " rows, expected " + rows);
            scalarRetrying(c, "SELECT n FROM tick_count");
        }
        out.printf("   loaded %s rows into big, indexed; cluster %s%n", Report.count(rows), cluster);
        out.flush();

        PacedWalker walker = new PacedWalker(sessions, walk, walksPerSecond);
        Series lookups;
        PacedWalker.Result lookupWalks;
        try {
            lookups = lookups(sessions);
        } finally {
            lookupWalks = walker.stop();
        }
        String servedBy = servedBy(sessions);

        AtomicLong acked = new AtomicLong();
        AtomicBoolean ticking = new AtomicBoolean(true);
        Thread ticker = Thread.ofPlatform().name("measure-ticker").daemon().start(() -> tick(sessions, acked, ticking));
        walker = new PacedWalker(sessions, walk, walksPerSecond);
        Series strict;
        PacedWalker.Result strictWalks;
        try {
            strict = strictCountReads(sessions, acked);
        } finally {
            strictWalks = walker.stop();
            ticking.set(false);
            ticker.join();
        }

        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicLong cycles = new AtomicLong();
        String[] churnError = new String[1];
        long churnStart = System.nanoTime();
        Thread churn = Thread.ofPlatform().name("measure-index-churn").daemon().start(() -> {
            try (Connection c = sessions.open()) {
                while (churning.get()) {
                    Sql.exec(c, "CREATE INDEX big_payload_idx ON big (payload)");
                    // A lookup through the new index: returns once it has hydrated.
                    scalarRetrying(c, "SELECT id FROM big WHERE payload = '" + Sql.payload(1) + "'");
                    Sql.exec(c, "DROP INDEX big_payload_idx");
                    cycles.incrementAndGet();
                }
            } catch (SQLException e) {
                churnError[0] = e.getSQLState() + ": " + e.getMessage();
            }
        });
        Series introspection;
        try {
            introspection = introspectionReads(sessions);
        } finally {
            churning.set(false);
            churn.join();
        }
        double churnSeconds = (System.nanoTime() - churnStart) / 1e9;
        if (churnError[0] != null) {
            introspection = new Series(introspection.latency(), introspection.wrong(), introspection.failed(),
                    Optional.of(introspection.error().map(e -> e + "; ").orElse("") + "index churn stopped: " + churnError[0]));
        }
        return new Figures(layout, cluster, lookups, lookupWalks, servedBy, strict, strictWalks, acked.get(),
                introspection, cycles.get(), churnSeconds);
    }

    /**
     * A scalar read that is retried (up to 5 times, each failure printed) when it fails with
     * an internal error (XX000): a read racing a new index's compaction has been seen to
     * fail that way, and the measurement should still produce figures while saying so.
     */
    private long scalarRetrying(Connection c, String sql) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return Sql.scalarLong(c, sql);
            } catch (SQLException e) {
                if (!"XX000".equals(e.getSQLState()) || attempt == 5) throw e;
                out.printf("   WARNING: %s failed (%s: %s); retrying%n", sql, e.getSQLState(), e.getMessage());
            }
        }
    }

    /** Creates cluster {@value #CLUSTER}; before cluster DDL exists, says so and uses the default cluster. */
    private String createCluster(MeasuredServer server) throws SQLException {
        try (Connection c = server.connect()) {
            Sql.exec(c, "CREATE CLUSTER " + CLUSTER + " (SIZE = 'scale=1,workers=" + workers + "')");
            return CLUSTER;
        } catch (SQLException e) {
            out.printf("   CREATE CLUSTER failed (%s: %s); measuring the default cluster%n", e.getSQLState(), e.getMessage());
            return "default";
        }
    }

    /** (a) Closed-loop point lookups of random existing ids. */
    private Series lookups(PacedWalker.Sessions sessions) throws SQLException {
        Histogram micros = LatencySummary.newHistogram();
        long wrong = 0;
        Failures failures = new Failures();
        SplittableRandom random = new SplittableRandom(42);
        try (Connection c = sessions.open(); PreparedStatement ps = c.prepareStatement(LOOKUP)) {
            for (int phase = 0; phase < 2; phase++) {
                boolean recording = phase == 1;
                long end = System.nanoTime() + (long) ((recording ? seconds : warmupSeconds) * 1e9);
                while (System.nanoTime() < end) {
                    long id = 1 + random.nextLong(rows);
                    ps.setLong(1, id);
                    long start = System.nanoTime();
                    String payload = null;
                    int found = 0;
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            payload = rs.getString(1);
                            found++;
                        }
                    } catch (SQLException e) {
                        if (recording) failures.add(e);
                        continue;
                    }
                    long took = System.nanoTime() - start;
                    if (recording) {
                        micros.recordValue(Math.max(1, took / 1000));
                        if (found != 1 || !Sql.payload(id).equals(payload)) wrong++;
                    }
                }
            }
        }
        return new Series(LatencySummary.of(micros), wrong, failures.count, failures.first());
    }

    /** Counts failed reads; gives up (rethrows) past {@link #MAX_FAILED_READS}. */
    private static final class Failures {
        long count;
        String first;

        void add(SQLException e) throws SQLException {
            if (first == null) first = e.getSQLState() + ": " + e.getMessage();
            if (++count > MAX_FAILED_READS) throw e;
        }

        Optional<String> first() { return Optional.ofNullable(first); }
    }

    /** Which runtime served the lookups, from mz_peek_history ("interactive 1234"), or why that is unknown. */
    private static String servedBy(PacedWalker.Sessions sessions) {
        try (Connection c = sessions.open(); PreparedStatement ps = c.prepareStatement(
                "SELECT runtime, count(*) FROM mz_introspection.mz_peek_history WHERE statement LIKE ?"
                        + " GROUP BY runtime ORDER BY runtime")) {
            ps.setString(1, "SELECT payload AS measure_lookup FROM %");
            List<String> parts = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) parts.add(rs.getString(1) + " " + Report.count(rs.getLong(2)));
            }
            return parts.isEmpty() ? "none recorded" : String.join(", ", parts);
        } catch (SQLException e) {
            return "unknown (" + e.getSQLState() + ")";
        }
    }

    /** Writes one row into ticks every 1/ticksPerSecond s; {@code acked} counts acknowledged rows. */
    private void tick(PacedWalker.Sessions sessions, AtomicLong acked, AtomicBoolean running) {
        long interval = (long) (1e9 / ticksPerSecond);
        try (Connection c = sessions.open(); PreparedStatement ps = c.prepareStatement("INSERT INTO ticks VALUES (?)")) {
            long next = System.nanoTime();
            while (running.get()) {
                ps.setLong(1, acked.get() + 1);
                ps.executeUpdate();
                acked.incrementAndGet();
                next += interval;
                long wait;
                while (running.get() && (wait = next - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
            }
        } catch (SQLException e) {
            out.printf("   ticker stopped: %s: %s%n", e.getSQLState(), e.getMessage());
        }
    }

    /**
     * (b) Closed-loop strict serializable reads of the indexed count. A read must count at
     * least every row acknowledged before it started; one that does not is counted as wrong.
     */
    private Series strictCountReads(PacedWalker.Sessions sessions, AtomicLong acked) throws SQLException {
        Histogram micros = LatencySummary.newHistogram();
        long wrong = 0;
        Failures failures = new Failures();
        try (Connection c = sessions.open()) {
            Sql.exec(c, "SET transaction_isolation = 'strict serializable'");
            try (PreparedStatement ps = c.prepareStatement("SELECT n FROM tick_count")) {
                for (int phase = 0; phase < 2; phase++) {
                    boolean recording = phase == 1;
                    long end = System.nanoTime() + (long) ((recording ? seconds : warmupSeconds) * 1e9);
                    while (System.nanoTime() < end) {
                        long before = acked.get();
                        long start = System.nanoTime();
                        long n;
                        try (ResultSet rs = ps.executeQuery()) {
                            n = rs.next() ? rs.getLong(1) : -1;
                        } catch (SQLException e) {
                            if (recording) failures.add(e);
                            continue;
                        }
                        long took = System.nanoTime() - start;
                        if (recording) {
                            micros.recordValue(Math.max(1, took / 1000));
                            if (n < before) wrong++;
                        }
                    }
                }
            }
        }
        return new Series(LatencySummary.of(micros), wrong, failures.count, failures.first());
    }

    /** (c) Closed-loop reads of the arrangement sizes; stops early (with the error) if the relation cannot be read. */
    private Series introspectionReads(PacedWalker.Sessions sessions) throws SQLException {
        Histogram micros = LatencySummary.newHistogram();
        try (Connection c = sessions.open();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM mz_introspection.mz_dataflow_arrangement_sizes")) {
            for (int phase = 0; phase < 2; phase++) {
                boolean recording = phase == 1;
                long end = System.nanoTime() + (long) ((recording ? seconds : warmupSeconds) * 1e9);
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        Sql.drain(ps);
                    } catch (SQLException e) {
                        return new Series(LatencySummary.of(micros), 0, 1, Optional.of(e.getSQLState() + ": " + e.getMessage()));
                    }
                    if (recording) micros.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                }
            }
        }
        return new Series(LatencySummary.of(micros), 0, 0, Optional.empty());
    }

    private void print(List<Figures> figures) {
        if (figures.isEmpty()) return;
        String walks = Report.rate(walksPerSecond) + " full walks/s of a " + Report.count(rows) + "-row index";
        Report a = new Report("(a) point lookup latency, ms, while " + walks,
                "replica", "lookups", "p50", "p99", "max", "wrong", "failed", "walks/s done", "walk p50 ms", "lookups served by");
        for (Figures f : figures) {
            LatencySummary l = f.lookups().latency();
            a.row(f.layout().label, Report.count(l.count()), Report.ms(l.p50()), Report.ms(l.p99()), Report.ms(l.max()),
                    Report.count(f.lookups().wrong()), Report.count(f.lookups().failed()),
                    Report.rate(f.lookupWalks().walksPerSecond()),
                    Report.ms(f.lookupWalks().latency().p50()), f.lookupsServedBy());
        }
        a.note("lookups: one connection, prepared statement, closed loop; " + LOOKUP);
        a.note("wrong: lookups that did not return exactly the row asked for (should be 0).");
        a.note("lookups served by: runtime column of mz_introspection.mz_peek_history for these lookups.");
        notes(a, figures, f -> f.lookups().error().map(e -> "first failed lookup: " + e));
        notes(a, figures, f -> f.lookupWalks().error().map(e -> "walker stopped: " + e));
        a.print(out);

        Report b = new Report("(b) strict serializable read latency of a maintained count, ms, while " + walks,
                "replica", "reads", "p50", "p99", "max", "stale", "failed", "walks/s done", "rows written");
        for (Figures f : figures) {
            LatencySummary l = f.strictReads().latency();
            b.row(f.layout().label, Report.count(l.count()), Report.ms(l.p50()), Report.ms(l.p99()), Report.ms(l.max()),
                    Report.count(f.strictReads().wrong()), Report.count(f.strictReads().failed()),
                    Report.rate(f.strictWalks().walksPerSecond()), Report.count(f.ticks()));
        }
        b.note("reads: SELECT n FROM tick_count (indexed view SELECT count(*) FROM ticks), closed loop; "
                + Report.rate(ticksPerSecond) + " single-row INSERTs/s into ticks meanwhile.");
        b.note("stale: reads that counted fewer rows than were acknowledged before they started (should be 0).");
        notes(b, figures, f -> f.strictReads().error().map(e -> "first failed read: " + e));
        notes(b, figures, f -> f.strictWalks().error().map(e -> "walker stopped: " + e));
        b.print(out);

        Report c = new Report("(c) introspection read latency, ms, while an index on big is created, hydrated and dropped in a loop",
                "replica", "reads", "p50", "p99", "max", "churn cycles", "cycles/s");
        for (Figures f : figures) {
            LatencySummary l = f.introspection().latency();
            c.row(f.layout().label, Report.count(l.count()), Report.ms(l.p50()), Report.ms(l.p99()), Report.ms(l.max()),
                    Report.count(f.churnCycles()), Report.rate(f.churnCycles() / Math.max(1e-9, f.churnSeconds())));
        }
        c.note("reads: SELECT count(*) FROM mz_introspection.mz_dataflow_arrangement_sizes, closed loop.");
        c.note("churn cycle: CREATE INDEX big_payload_idx ON big (payload); a lookup through it; DROP INDEX.");
        notes(c, figures, f -> f.introspection().error());
        c.print(out);
        for (Figures f : figures) {
            if (!f.cluster().equals(CLUSTER)) out.printf("note: %s was measured on the default cluster (no cluster DDL)%n", f.layout().label);
        }
        out.flush();
    }

    private static void notes(Report r, List<Figures> figures, java.util.function.Function<Figures, Optional<String>> what) {
        for (Figures f : figures) what.apply(f).ifPresent(e -> r.note(f.layout().label + ": " + e));
    }
}
