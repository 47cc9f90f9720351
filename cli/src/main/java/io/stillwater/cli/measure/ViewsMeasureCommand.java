package io.stillwater.cli.measure;

import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure views}: the figures of issue 4 (views, indexes, materialized
 * views), each part on a fresh embedded engine + wire server (loopback, ephemeral port,
 * temp dir) reached through pgjdbc:
 *
 * <ol type="a">
 *   <li>point-lookup latency through a default index, a keyed index, and no index;</li>
 *   <li>steady-state insert throughput into a table feeding an indexed join + group-by view;</li>
 *   <li>freshness of that view at half the measured throughput (reported lag and
 *       ack-to-visible);</li>
 *   <li>index hydration rate for CREATE DEFAULT INDEX on a large table.</li>
 * </ol>
 *
 * A part that fails prints its error and the others still run; the exit code is 1 then.
 */
@Command(name = "views",
        mixinStandardHelpOptions = true,
        description = {
                "Measure lookups through indexes, insert throughput into a table feeding an indexed join + group-by view,",
                "that view's freshness at half the throughput, and index hydration. Each part runs on a fresh embedded",
                "engine + wire server on a loopback port, reached through pgjdbc. The defaults finish in about two minutes.",
                "Prints figures only: nothing here asserts a speed."})
final class ViewsMeasureCommand implements Callable<Integer> {
    enum Part { LOOKUP, THROUGHPUT, HYDRATION }

    @Option(names = "--workers", defaultValue = "1", description = "Maintenance worker threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--no-fsync", description = "Do not fsync the write-ahead log (acknowledgements get cheaper; not durable).")
    boolean noFsync;

    @Option(names = "--parts", split = ",", defaultValue = "lookup,throughput,hydration",
            converter = PartConverter.class,
            description = "Parts to run, comma-separated: lookup, throughput (includes freshness), hydration (default: ${DEFAULT-VALUE}).")
    Set<Part> parts;

    @Option(names = "--lookup-rows", defaultValue = "100000", description = "Rows of each lookup table (default: ${DEFAULT-VALUE}).")
    long lookupRows;

    @Option(names = "--lookup-seconds", defaultValue = "8", description = "Measured seconds per lookup variant (default: ${DEFAULT-VALUE}).")
    double lookupSeconds;

    @Option(names = "--warmup-seconds", defaultValue = "2", description = "Unrecorded warm-up before each measured phase (default: ${DEFAULT-VALUE}).")
    double warmupSeconds;

    @Option(names = "--connections", defaultValue = "4", description = "Writer connections for the insert load (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--batch-rows", defaultValue = "100", description = "Rows per multi-row INSERT (default: ${DEFAULT-VALUE}).")
    int batchRows;

    @Option(names = "--throughput-seconds", defaultValue = "15", description = "Measured seconds of the closed-loop insert load (default: ${DEFAULT-VALUE}).")
    double throughputSeconds;

    @Option(names = "--freshness-seconds", defaultValue = "15", description = "Measured seconds of the paced load for freshness (default: ${DEFAULT-VALUE}).")
    double freshnessSeconds;

    @Option(names = "--freshness-rate", defaultValue = "0",
            description = "Rows/s of the paced load; 0 means half the measured throughput (default: ${DEFAULT-VALUE}).")
    double freshnessRate;

    @Option(names = "--sample-interval-ms", defaultValue = "50", description = "Freshness sampling interval (default: ${DEFAULT-VALUE}).")
    long sampleIntervalMillis;

    @Option(names = "--hydration-rows", defaultValue = "1000000", description = "Rows of the table indexed for hydration (default: ${DEFAULT-VALUE}).")
    long hydrationRows;

    @Spec
    CommandSpec spec;

    /** Where the report goes: the command line's writer, so callers (and tests) can capture it. */
    private PrintWriter out;

    static final class PartConverter implements picocli.CommandLine.ITypeConverter<Part> {
        @Override
        public Part convert(String value) {
            return Part.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        if (workers < 1 || connections < 1 || batchRows < 1 || lookupRows < 1 || hydrationRows < 1) {
            spec.commandLine().getErr().println("stillwater measure views: --workers, --connections, --batch-rows and the row counts must be positive");
            return 2;
        }
        Set<Part> todo = parts.isEmpty() ? EnumSet.allOf(Part.class) : EnumSet.copyOf(parts);
        out.printf(Locale.ROOT, "stillwater measure views: workers=%d fsync=%s, %d CPUs, Java %s%n",
                workers, !noFsync, Runtime.getRuntime().availableProcessors(), Runtime.version());
        boolean ok = true;
        if (todo.contains(Part.LOOKUP)) ok &= part("(a) point lookups", this::lookups);
        if (todo.contains(Part.THROUGHPUT)) ok &= part("(b, c) insert throughput and freshness", this::throughputAndFreshness);
        if (todo.contains(Part.HYDRATION)) ok &= part("(d) index hydration", this::hydration);
        return ok ? 0 : 1;
    }

    private interface Measurement {
        void run(MeasuredServer server) throws Exception;
    }

    /** Runs one part on a fresh server; reports a failure instead of ending the run. */
    private boolean part(String name, Measurement m) {
        out.printf("%n== %s ...%n", name);
        out.flush();
        try (MeasuredServer server = MeasuredServer.start(workers, !noFsync)) {
            m.run(server);
            return true;
        } catch (Exception e) {
            out.printf("%s FAILED: %s%n", name, e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) out.printf("  caused by: %s%n", c);
            return false;
        }
    }

    private void lookups(MeasuredServer server) throws Exception {
        LookupLatency.Result[] results = new LookupLatency(server, lookupRows, lookupSeconds, warmupSeconds).run();
        Report r = new Report("(a) point lookup latency, ms (pgjdbc, prepared statement, one reused connection, closed loop, "
                + Report.count(lookupRows) + " rows)",
                "variant", "lookups", "p50", "p99", "mean", "max", "wrong answers");
        for (LookupLatency.Result x : results) {
            LatencySummary l = x.latency();
            r.row(x.variant(), Report.count(l.count()), Report.ms(l.p50()), Report.ms(l.p99()), Report.ms(l.mean()),
                    Report.ms(l.max()), Report.count(x.wrongAnswers()));
        }
        for (LookupLatency.Result x : results) r.note(x.variant() + ": " + x.query());
        r.note("wrong answers counts lookups that did not return exactly the one row asked for (should be 0).");
        r.print(out);
    }

    private void throughputAndFreshness(MeasuredServer server) throws Exception {
        JoinGroupByLoad load = new JoinGroupByLoad(server, connections, batchRows);
        load.createSchema();

        JoinGroupByLoad.Run closed = load.run(warmupSeconds, throughputSeconds, 0);
        long caughtUpStart = System.nanoTime();
        long inView;
        try (var c = server.connect()) {
            inView = load.rowsInView(c); // strict serializable: waits for every acknowledged write
        }
        double catchUp = (System.nanoTime() - caughtUpStart) / 1e9;
        Report b = new Report("(b) insert throughput into orders, feeding the indexed view region_totals "
                + "(join with customers + group by region)",
                "load", "rows/s", "rows", "batches", "batch p50 ms", "batch p99 ms");
        b.row(connections + " connections x " + batchRows + "-row INSERTs, closed loop",
                Report.rate(closed.rowsPerSecond()), Report.count(closed.rows()), Report.count(closed.batches()),
                Report.ms(closed.batchLatency().p50()), Report.ms(closed.batchLatency().p99()));
        b.note(String.format(Locale.ROOT, "measured over %s s after %s s of warm-up; rows/s counts acknowledged rows (durable unless --no-fsync).",
                Report.seconds(throughputSeconds), Report.seconds(warmupSeconds)));
        b.note(String.format(Locale.ROOT, "after the load, a strict serializable read of the view returned in %s s; "
                + "it counted %s rows, %s acknowledged.", Report.seconds(catchUp), Report.count(inView),
                Report.count(load.acknowledgedRows())));
        b.print(out);

        double rate = freshnessRate > 0 ? freshnessRate : closed.rowsPerSecond() / 2;
        if (rate <= 0) {
            throw new IllegalStateException("no INSERT was acknowledged inside the measured " + Report.seconds(throughputSeconds)
                    + " s, so there is no rate to halve: use a longer --throughput-seconds or set --freshness-rate");
        }
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService sampler = Executors.newSingleThreadExecutor();
        Future<Freshness.Result> sampled = sampler.submit(() -> new Freshness(server, sampleIntervalMillis).sampleWhile(running));
        JoinGroupByLoad.Run paced;
        try {
            paced = load.run(warmupSeconds, freshnessSeconds, rate);
        } finally {
            running.set(false);
            sampler.shutdown();
        }
        Freshness.Result f = sampled.get();
        Report c = new Report(String.format(Locale.ROOT, "(c) freshness of region_totals_idx at %s rows/s (target; achieved %s rows/s)",
                Report.rate(rate), Report.rate(paced.rowsPerSecond())),
                "measure", "samples", "p50 ms", "p99 ms", "mean ms", "max ms");
        LatencySummary lag = f.reportedLagMicros();
        if (f.reportedLagError().isPresent()) {
            c.row("mz_internal.mz_wallclock_global_lag", "-", "-", "-", "-", "-");
        } else {
            c.row("mz_internal.mz_wallclock_global_lag", Report.count(lag.count()), Report.ms(lag.p50()),
                    Report.ms(lag.p99()), Report.ms(lag.mean()), Report.ms(lag.max()));
        }
        LatencySummary vis = f.ackToVisibleMicros();
        c.row("insert ack -> visible (serializable reads)", Report.count(vis.count()), Report.ms(vis.p50()),
                Report.ms(vis.p99()), Report.ms(vis.mean()), Report.ms(vis.max()));
        c.note("mz_wallclock_global_lag: the index's reported lag (wall clock minus its write frontier), sampled every "
                + sampleIntervalMillis + " ms.");
        c.note("ack -> visible: a probe row inserted every " + sampleIntervalMillis
                + " ms; time from its INSERT acknowledgement until a serializable read of the view counts it.");
        f.reportedLagError().ifPresent(e -> c.note("reported lag unavailable: " + e));
        c.note(String.format(Locale.ROOT, "paced load: %s, open loop; batch latency from the scheduled start p50 %s ms, p99 %s ms.",
                connections + " connections x " + batchRows + "-row INSERTs",
                Report.ms(paced.batchLatency().p50()), Report.ms(paced.batchLatency().p99())));
        c.print(out);
    }

    private void hydration(MeasuredServer server) throws Exception {
        Hydration.Result h = new Hydration(server, hydrationRows).run();
        Report r = new Report("(d) index hydration: CREATE DEFAULT INDEX on a table of " + Report.count(h.rows()) + " rows",
                "phase", "seconds", "rows/s");
        r.row("load the table (INSERT ... SELECT generate_series, 100k rows each)", Report.seconds(h.loadSeconds()),
                Report.rate(h.loadRowsPerSecond()));
        r.row("CREATE DEFAULT INDEX returned", Report.seconds(h.createReturnedSeconds()), "-");
        r.row("CREATE INDEX -> first successful lookup through it", Report.seconds(h.hydratedSeconds()),
                Report.rate(h.rowsPerSecond()));
        if (h.failedReads() > 0) r.note(h.failedReads() + " lookups failed or missed the row before the first success.");
        r.print(out);
    }
}
