package io.stillwater.cli.measure;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.runner.Target;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.targets.TargetSpec;
import io.stillwater.targets.ThrowawayPostgres;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure memory}: the memory a table's rows take, Stillwater against
 * PostgreSQL 15 (issue 17, item 4). The same table on both, {@code t(a int, b int)} with
 * {@code --rows} rows {@code (g, g + 1)} inserted by {@code INSERT ... SELECT generate_series} in
 * chunks of {@code --chunk}:
 *
 * <ul>
 *   <li>Stillwater: the embedded engine in this JVM, {@code CREATE DEFAULT INDEX ON t}; the live
 *       heap after a full GC and the process's resident set (Linux {@code VmRSS}), each before the
 *       table was created and after every row is readable, the difference per row;</li>
 *   <li>PostgreSQL: a throwaway 15 cluster, a btree index on {@code a}, after {@code VACUUM}:
 *       {@code pg_total_relation_size} (heap, index, free-space and visibility maps) per row;</li>
 *   <li>where a row's bytes go in an arrangement: {@link RowFootprint} (JOL) of one batch of
 *       the engine's real classes.</li>
 * </ul>
 *
 * Prints figures only; the exit code is 1 when a part failed (the others still run).
 */
@Command(name = "memory",
        mixinStandardHelpOptions = true,
        description = {
                "Measure memory per row of a two-int table: Stillwater's heap and RSS growth (embedded engine,",
                "default index) against PostgreSQL 15's pg_total_relation_size (btree index on a), and where",
                "a row's bytes go in an arrangement batch (JOL). Prints figures only."})
final class MemoryMeasureCommand implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "1000000", description = "Rows of the table (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--chunk", defaultValue = "100000",
            description = "Rows per INSERT ... SELECT statement (default: ${DEFAULT-VALUE}).")
    int chunk;

    @Option(names = "--layout-rows", defaultValue = "100000",
            description = "Rows of the batch whose layout JOL walks (default: ${DEFAULT-VALUE}).")
    int layoutRows;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        if (rows < 1 || chunk < 1 || layoutRows < 1) {
            spec.commandLine().getErr().println("stillwater measure memory: --rows, --chunk and --layout-rows must be positive");
            return 2;
        }
        out.printf(Locale.ROOT, "stillwater measure memory: %s rows, Java %s, max heap %s MB%n", Report.count(rows),
                Runtime.version(), Report.count(Runtime.getRuntime().maxMemory() >> 20));
        int status = 0;
        Double stillwaterHeap = null;
        Double stillwaterRss = null;
        Double postgres = null;
        try {
            double[] sw = stillwater();
            stillwaterHeap = sw[0];
            stillwaterRss = sw[1];
        } catch (Exception e) {
            status = 1;
            out.println("Stillwater part FAILED: " + SqlErrors.describe(e));
        }
        try {
            postgres = postgres();
        } catch (ThrowawayPostgres.MissingPostgresException e) {
            status = 1;
            out.println("PostgreSQL part not run: " + e.getMessage());
        } catch (Exception e) {
            status = 1;
            out.println("PostgreSQL part FAILED: " + SqlErrors.describe(e));
        }
        Report summary = new Report("Bytes per row: t(a int, b int), " + Report.count(rows) + " rows",
                "side", "bytes/row", "MB per 1M rows", "/ PostgreSQL");
        summaryRow(summary, "Stillwater live heap (table + default index)", stillwaterHeap, postgres);
        summaryRow(summary, "Stillwater RSS growth", stillwaterRss, postgres);
        summaryRow(summary, "PostgreSQL 15 pg_total_relation_size (heap + btree on a)", postgres, postgres);
        summary.note("goal (issue 17): Stillwater at most 2x PostgreSQL's size").print(out);
        try {
            RowFootprint.of(layoutRows).print(out);
        } catch (RuntimeException | LinkageError e) {
            status = 1;
            out.println("layout part FAILED: " + e);
        }
        out.flush();
        return status;
    }

    private static void summaryRow(Report r, String side, Double bytesPerRow, Double postgres) {
        r.row(side, bytesPerRow == null ? "-" : String.format(Locale.ROOT, "%.1f", bytesPerRow),
                bytesPerRow == null ? "-" : String.format(Locale.ROOT, "%.1f", bytesPerRow * 1e6 / (1 << 20)),
                bytesPerRow == null || postgres == null ? "-" : String.format(Locale.ROOT, "%.2f", bytesPerRow / postgres));
    }

    /** Live heap and RSS growth per row of the embedded engine: {heap, rss}. */
    private double[] stillwater() throws Exception {
        try (TargetLauncher.LaunchedTarget t = Targets.launcher(TargetSpec.parse("embedded"), SideParams.NONE).launch();
                Connection c = t.connect(); Statement s = c.createStatement()) {
            HeapHistogram classes0 = HeapHistogram.take();
            long heap0 = liveHeap();
            long rss0 = rss();
            long started = System.nanoTime();
            s.execute("CREATE TABLE t (a int, b int)");
            s.execute("CREATE DEFAULT INDEX ON t");
            insert(s);
            long count = count(s); // a read after the last insert: every row is arranged
            double seconds = (System.nanoTime() - started) / 1e9;
            long heap1 = liveHeap();
            long rss1 = rss();
            HeapHistogram classes1 = HeapHistogram.take();
            new Report("1. Stillwater (embedded engine in this JVM): CREATE DEFAULT INDEX ON t",
                    "when", "live heap MB", "RSS MB")
                    .row("before CREATE TABLE", mb(heap0), mb(rss0))
                    .row("after " + Report.count(count) + " rows", mb(heap1), mb(rss1))
                    .note(String.format(Locale.ROOT, "growth per row: live heap %.1f B, RSS %.1f B; created and filled in %.1f s",
                            (heap1 - heap0) / (double) rows, (rss1 - rss0) / (double) rows, seconds))
                    .note("live heap: used heap after System.gc() (the JVM's full collection); RSS: VmRSS of this process, "
                            + "which keeps heap it grew into, so it depends on the collector and -Xmx")
                    .print(out);
            HeapHistogram.printGrowth(out, classes0, classes1, rows, 8);
            if (count != rows) throw new IllegalStateException("t has " + count + " rows, expected " + rows);
            return new double[] {(heap1 - heap0) / (double) rows, (rss1 - rss0) / (double) rows};
        }
    }

    /** pg_total_relation_size per row on a throwaway PostgreSQL 15. */
    private double postgres() throws Exception {
        try (ThrowawayPostgres pg = ThrowawayPostgres.start()) {
            Target t = Target.of(pg.jdbcUrl(), pg.user(), Set.of());
            try (Connection c = t.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (a int, b int)");
                s.execute("CREATE INDEX t_a ON t (a)");
                insert(s);
                s.execute("VACUUM ANALYZE t");
                long count = count(s);
                long total;
                long heap;
                long indexes;
                String version;
                try (ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('t'), pg_relation_size('t'), "
                        + "pg_indexes_size('t'), current_setting('server_version')")) {
                    rs.next();
                    total = rs.getLong(1);
                    heap = rs.getLong(2);
                    indexes = rs.getLong(3);
                    version = rs.getString(4);
                }
                new Report("2. PostgreSQL " + version + " (throwaway): CREATE INDEX t_a ON t (a), after VACUUM ANALYZE",
                        "relation", "MB", "bytes/row")
                        .row("heap (pg_relation_size)", mb(heap), perRow(heap, count))
                        .row("indexes (pg_indexes_size)", mb(indexes), perRow(indexes, count))
                        .row("total (pg_total_relation_size)", mb(total), perRow(total, count))
                        .note("total includes the free-space and visibility maps")
                        .print(out);
                return total / (double) count;
            }
        }
    }

    private void insert(Statement s) throws SQLException {
        for (long from = 1; from <= rows; from += chunk) {
            long to = Math.min(rows, from + chunk - 1);
            s.execute("INSERT INTO t SELECT g, g + 1 FROM generate_series(" + from + ", " + to + ") g");
        }
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Heap in use after full collections (repeated until it stops shrinking, at most 5 times). */
    static long liveHeap() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            MemoryUsage u = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            if (u.getUsed() >= best) break;
            best = u.getUsed();
        }
        return best;
    }

    /** This process's resident set in bytes (Linux), or -1 where /proc is missing. */
    static long rss() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) return -1;
        for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.1f", bytes / (double) (1 << 20));
    }

    private static String perRow(long bytes, long rows) {
        return String.format(Locale.ROOT, "%.1f", bytes / (double) rows);
    }
}
