package io.stillwater.cli.measure;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure ingest}: writes offered at twice what maintenance sustains, with
 * and without write backpressure ({@code max_maintenance_lag}), on fresh embedded engines
 * reached through pgjdbc ({@link IngestLoad}):
 *
 * <ol>
 *   <li><b>calibration</b>: after a warm-up, a short closed loop with backpressure off finds
 *       the insert rate maintenance sustains (rows acknowledged over the time until the view
 *       caught up);</li>
 *   <li><b>per mode</b> (backpressure at the engine's default bound, then off): an open loop
 *       at {@code --rate-factor} times that rate for {@code --seconds}, sampling RSS, heap
 *       after GC, the index's frontier lag, the write backlog and the writers waiting; then
 *       the rows offered / acknowledged / failed / never issued, and whether the table and the
 *       view hold exactly the acknowledged rows.</li>
 * </ol>
 *
 * The engine shares this JVM (RSS and heap include the load generator, which holds no rows).
 * Figures only: nothing here asserts a speed. A mode that fails prints its error; the exit
 * code is 1 then.
 */
@Command(name = "ingest",
        mixinStandardHelpOptions = true,
        description = {
                "Offer inserts at twice what maintenance sustains (an indexed view that costs far more to maintain than",
                "the write), with write backpressure on and off, and report RSS, heap after GC, frontier lag, the write",
                "backlog and writers waiting over time, and rows offered / acknowledged / present at the end.",
                "Each mode runs on a fresh embedded engine + wire server reached through pgjdbc. Figures only."})
final class IngestMeasureCommand implements Callable<Integer> {
    @Option(names = "--seconds", defaultValue = "60", description = "Seconds of the open-loop run per mode (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup-seconds", defaultValue = "10",
            description = "Seconds at the start of each run left out of the lag percentiles and the RSS/heap trend (default: ${DEFAULT-VALUE}).")
    double warmupSeconds;

    @Option(names = "--calibration-seconds", defaultValue = "10",
            description = "Seconds of the closed loop that finds what maintenance sustains (default: ${DEFAULT-VALUE}).")
    double calibrationSeconds;

    @Option(names = "--rate-factor", defaultValue = "2",
            description = "Offered rate as a multiple of the calibrated one (default: ${DEFAULT-VALUE}).")
    double rateFactor;

    @Option(names = "--rate", defaultValue = "0",
            description = "Offered rows/s; 0: --rate-factor times the calibrated rate (then no calibration runs when set) (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--max-maintenance-lag", defaultValue = "3s",
            description = "The bound of the backpressure mode, as for ALTER SYSTEM SET max_maintenance_lag (default: ${DEFAULT-VALUE}).")
    String bound;

    @Option(names = "--modes", split = ",", defaultValue = "on,off",
            description = "Which runs, in order: on (backpressure at --max-maintenance-lag), off (max_maintenance_lag = 0) (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--connections", defaultValue = "8", description = "Writer connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--batch-rows", defaultValue = "10", description = "Rows per INSERT (default: ${DEFAULT-VALUE}).")
    int batchRows;

    @Option(names = "--pad-bytes", defaultValue = "100",
            description = "Text payload per written row: what a queued write holds in memory (default: ${DEFAULT-VALUE}).")
    int padBytes;

    @Option(names = "--big-rows", defaultValue = "20000",
            description = "Rows every inserted row is paired with: the maintenance cost per row (default: ${DEFAULT-VALUE}; at least --batch-rows).")
    int bigRows;

    @Option(names = "--sample-interval-ms", defaultValue = "500", description = "Sampling interval (default: ${DEFAULT-VALUE}).")
    long sampleMillis;

    @Option(names = "--report-interval-seconds", defaultValue = "5",
            description = "Width of one row of the over-time table (default: ${DEFAULT-VALUE}).")
    double reportSeconds;

    @Option(names = "--workers", defaultValue = "1", description = "Maintenance worker threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--no-fsync", description = "Do not fsync the write-ahead log (acknowledgements get cheaper; not durable).")
    boolean noFsync;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        if (seconds <= 0 || calibrationSeconds <= 0 || rateFactor <= 0 || rate < 0 || connections < 1 || batchRows < 1
                || bigRows < batchRows || padBytes < 0 || sampleMillis < 1 || reportSeconds <= 0 || workers < 1 || warmupSeconds < 0) {
            spec.commandLine().getErr().println("stillwater measure ingest: --seconds, --calibration-seconds, --rate-factor, "
                    + "--connections, --batch-rows, --sample-interval-ms, --report-interval-seconds and --workers must be "
                    + "positive, --big-rows at least --batch-rows, --rate, --pad-bytes and --warmup-seconds not negative");
            return 2;
        }
        for (String m : modes) {
            if (!m.equals("on") && !m.equals("off")) {
                spec.commandLine().getErr().println("stillwater measure ingest: --modes takes on and off, got " + m);
                return 2;
            }
        }
        out.printf(Locale.ROOT, "stillwater measure ingest: workers=%d fsync=%s, %d CPUs, Java %s, max heap %s MB%n",
                workers, !noFsync, Runtime.getRuntime().availableProcessors(), Runtime.version(),
                Runtime.getRuntime().maxMemory() / (1024 * 1024));
        double offered = rate;
        if (offered == 0) {
            out.printf("%n== calibration: what maintenance sustains ...%n");
            out.flush();
            try (MeasuredServer server = MeasuredServer.start(workers, !noFsync, Map.of("max_maintenance_lag", "0"))) {
                IngestLoad load = new IngestLoad(server, bigRows, connections, batchRows, padBytes);
                load.createSchema();
                double sustained = load.calibrate(Math.min(warmupSeconds, calibrationSeconds), calibrationSeconds);
                offered = rateFactor * sustained;
                out.printf(Locale.ROOT, "maintenance sustained %s rows/s (%d connections x %d-row INSERTs, closed loop for %s s "
                                + "after %s s of warm-up, backpressure off, until the view caught up); offering %s x = %s rows/s%n",
                        Report.rate(sustained), connections, batchRows, Report.seconds(calibrationSeconds),
                        Report.seconds(Math.min(warmupSeconds, calibrationSeconds)), Report.seconds(rateFactor),
                        Report.rate(offered));
            } catch (Exception e) {
                out.printf("calibration FAILED: %s%n", e);
                return 1;
            }
        }
        boolean ok = true;
        List<String[]> summary = new ArrayList<>();
        for (String mode : modes) {
            String lag = mode.equals("on") ? bound : "0";
            String label = mode.equals("on") ? "backpressure on (max_maintenance_lag = " + bound + ")" : "backpressure off (max_maintenance_lag = 0)";
            out.printf("%n== %s: %s rows/s offered for %s s ...%n", label, Report.rate(offered), Report.seconds(seconds));
            out.flush();
            try (MeasuredServer server = MeasuredServer.start(workers, !noFsync, Map.of("max_maintenance_lag", lag))) {
                IngestLoad load = new IngestLoad(server, bigRows, connections, batchRows, padBytes);
                load.createSchema();
                IngestLoad.Run run = load.openLoop(offered, seconds, sampleMillis);
                printOverTime(label, run);
                summary.add(summaryRow(mode.equals("on") ? "on (" + bound + ")" : "off", run));
                ok &= run.acknowledgedRows() == run.rowsPresent() && run.viewConsistent();
            } catch (Exception e) {
                out.printf("%s FAILED: %s%n", label, e);
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) out.printf("  caused by: %s%n", c);
                ok = false;
            }
        }
        printSummary(offered, summary);
        return ok ? 0 : 1;
    }

    private static String mb(long bytes) { return String.format(Locale.ROOT, "%,d", bytes / (1024 * 1024)); }

    private static String ms(double millis) {
        return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%,.0f", millis);
    }

    /** One row per report interval: the last counters and the largest memory, lag and backlog in it. */
    private void printOverTime(String label, IngestLoad.Run run) {
        Report r = new Report("over time, " + label,
                "t (s)", "offered rows", "acked rows", "RSS MB", "heap after GC MB", "index lag ms", "backlog ms",
                "queued writes", "writers waiting");
        List<IngestLoad.Sample> bin = new ArrayList<>();
        double binEnd = reportSeconds;
        for (IngestLoad.Sample s : run.samples()) {
            if (s.seconds() > binEnd && !bin.isEmpty()) {
                r.row(binRow(binEnd, bin));
                bin.clear();
                while (s.seconds() > binEnd) binEnd += reportSeconds;
            }
            bin.add(s);
        }
        if (!bin.isEmpty()) r.row(binRow(bin.get(bin.size() - 1).seconds(), bin));
        r.note("samples every " + sampleMillis + " ms through SQL: mz_internal.mz_process_memory (RSS, heap after the last GC), "
                + "mz_internal.mz_wallclock_global_lag (the index " + IngestLoad.INDEX + "),");
        r.note("mz_internal.mz_write_backpressure (backlog: the admission measure; queued writes handed to the replica; "
                + "writers waiting for admission). Memory and lag columns are the largest sample in the interval.");
        r.print(out);
        for (String e : run.errors()) out.println("  error: " + e);
    }

    private static String[] binRow(double t, List<IngestLoad.Sample> bin) {
        IngestLoad.Sample last = bin.get(bin.size() - 1);
        long rss = 0, gc = 0, backlog = 0, queued = 0, waiting = 0;
        double lag = Double.NaN;
        for (IngestLoad.Sample s : bin) {
            rss = Math.max(rss, s.rssBytes());
            gc = Math.max(gc, s.heapAfterGcBytes());
            backlog = Math.max(backlog, s.backlogMillis());
            queued = Math.max(queued, s.queuedWrites());
            waiting = Math.max(waiting, s.waitingWrites());
            if (!Double.isNaN(s.lagMillis())) lag = Double.isNaN(lag) ? s.lagMillis() : Math.max(lag, s.lagMillis());
        }
        return new String[] {String.format(Locale.ROOT, "%.0f", t), Report.count(last.offeredRows()),
                Report.count(last.acknowledgedRows()), mb(rss), mb(gc), ms(lag), Report.count(backlog), Report.count(queued),
                Report.count(waiting)};
    }

    private String[] summaryRow(String mode, IngestLoad.Run run) {
        Histogram lag = new Histogram(1, 3_600_000_000L, 3);
        IngestLoad.Sample first = null, last = null;
        for (IngestLoad.Sample s : run.samples()) {
            if (s.seconds() < warmupSeconds) continue;
            if (first == null) first = s;
            last = s;
            if (!Double.isNaN(s.lagMillis())) lag.recordValue(Math.max(1, (long) (s.lagMillis() * 1000)));
        }
        LatencySummary l = LatencySummary.of(lag);
        String rss = first == null ? "-" : mb(first.rssBytes()) + " -> " + mb(last.rssBytes());
        String gc = first == null ? "-" : mb(first.heapAfterGcBytes()) + " -> " + mb(last.heapAfterGcBytes());
        boolean nothingLost = run.acknowledgedRows() == run.rowsPresent() && run.viewConsistent();
        return new String[] {mode, Report.count(run.offeredRows()), Report.count(run.acknowledgedRows()),
                Report.count(run.failedRows()), Report.count(run.notIssuedRows()), Report.count(run.rowsPresent()),
                nothingLost ? "yes" : "NO", Report.ms(l.p50()), Report.ms(l.p99()), Report.ms(l.max()), rss, gc,
                Report.ms(run.latencyMicros().p50()), Report.ms(run.latencyMicros().p99()),
                Report.seconds(run.catchUpSeconds())};
    }

    private void printSummary(double offered, List<String[]> rows) {
        Report r = new Report(String.format(Locale.ROOT, "summary: %s rows/s offered for %s s (%d connections x %d-row INSERTs, "
                        + "each row paired with %s rows)", Report.rate(offered), Report.seconds(seconds), connections, batchRows,
                Report.count(bigRows)),
                "backpressure", "offered", "acked", "failed", "not issued", "present", "nothing lost",
                "lag p50 ms", "lag p99 ms", "lag max ms", "RSS MB", "heap after GC MB", "insert p50 ms", "insert p99 ms",
                "catch-up s");
        for (String[] row : rows) r.row(row);
        r.note("lag: the index's mz_wallclock_global_lag over the samples after the first " + Report.seconds(warmupSeconds)
                + " s; RSS and heap after GC: first sample after that -> last sample.");
        r.note("not issued: rows due during the run whose INSERT never got a free writer (the client-side queue at the end).");
        r.note("nothing lost: every acknowledged row is in the table, and the view (once caught up) has exactly one row per row present.");
        r.note("insert latency from the scheduled time (queueing and admission waits included); catch-up: end of the run until "
                + "a strict serializable read of the view returned.");
        r.print(out);
    }
}
